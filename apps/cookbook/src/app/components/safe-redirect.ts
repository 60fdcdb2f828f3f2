/**
 * Where to go after signing in: `?redirect=` only when it is a path of this site. Anything that
 * could leave it (`//evil`, `/\evil`, `https://…`, `javascript:`, control characters, dot
 * segments that collapse into `//evil` such as `/.//evil` or `/%2e%2e//evil`) becomes `/`.
 */
import { LOGIN_PAGE } from '../account-routes.js';

const BASE = 'http://site.invalid';

export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Browsers drop tabs and newlines from URLs, so `/\t/evil` would become `//evil`.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  // The login page itself would only bring the visitor back here.
  if (url.pathname === LOGIN_PAGE) return '/';
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Normalising `/.//evil` gives `//evil`: what is returned is judged again, as a browser will read it.
  if (/^\/[/\\]/.test(target) || new URL(target, BASE).origin !== BASE) return '/';
  return target;
}

/** `/login?redirect=…` for the page the visitor is on. */
export function loginHref(currentPath: string): string {
  const target = safeRedirect(currentPath);
  return target === '/' ? LOGIN_PAGE : `${LOGIN_PAGE}?redirect=${encodeURIComponent(target)}`;
}

/** A path (and fragment) that URL parsing leaves as it is: no dot segment, doubled slash or escape. */
const PLAIN_PATH = /^(?:\/[\w~-]+)*\/?(?:#[\w-]+)?$/;

/**
 * loginHref without parsing a plain path twice as a URL: the server's, which draws a sign-in
 * link for every save button of a page (3 % of a listing page's render). Components call it under
 * `import.meta.env.SSR`, so the browser's first load carries none of it.
 */
export function serverLoginHref(currentPath: string): string {
  if (!PLAIN_PATH.test(currentPath)) return loginHref(currentPath);
  return currentPath.split('#')[0] === LOGIN_PAGE || currentPath === '/'
    ? LOGIN_PAGE
    : `${LOGIN_PAGE}?redirect=${encodeURIComponent(currentPath)}`;
}
