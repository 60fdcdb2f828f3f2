/**
 * A full page load of a same-site target, query and hash kept. When the address bar already shows
 * the target's path and query (a Back/Forward navigation, or a reload of where we are), assigning
 * it would only move to the hash, so the page is reloaded instead. Browser-safe.
 */
export function loadWholePage(target: string): void {
  const { pathname, search, hash } = window.location;
  const hashAt = target.indexOf('#');
  const pathAndQuery = hashAt === -1 ? target : target.slice(0, hashAt);
  if (pathAndQuery !== `${pathname}${search}`) {
    window.location.assign(target);
    return;
  }
  if (target !== `${pathname}${search}${hash}`) window.history.replaceState(window.history.state, '', target);
  window.location.reload();
}
