/**
 * `navigate(to, { external, replace, redirectCode, open })` (Nuxt's navigateTo): unsafe protocols
 * are always refused, external targets (absolute or `//host`) only with `external: true`. In the
 * browser it moves the router (or the whole page for external targets); on the server it throws
 * a redirect (302 by default) for the loader or middleware that called it. Browser-safe.
 */
import { redirect, type DataRouter as Router } from 'react-router';
import { createError, type HttpError } from '@tern/shared/errors/errors';
import { RENDERER_ERRORS } from '../error-codes.js';

export interface NavigateOptions {
  /** Allow an absolute URL or `//host`: the browser leaves the app for it. */
  external?: boolean;
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** The status of the server-side redirect (301, 302, 303, 307 or 308; default 302). */
  redirectCode?: number;
  /** Open the target in a new window (client only). */
  open?: { target?: string; windowFeatures?: Record<string, string | number | boolean> };
}

export type NavigationTarget = { kind: 'internal'; path: string } | { kind: 'external'; url: string };

const SCRIPT_PROTOCOL = /^[\s\0]*(blob|data|javascript|vbscript):/i;
// Browsers drop tabs and newlines inside URLs, so `java\tscript:` is still javascript:.
const IGNORED_BY_BROWSERS = /[\t\n\r]/g;
const HAS_PROTOCOL = /^[\s\0]*[a-z][a-z\d+.-]*:/i;
const PROTOCOL_RELATIVE = /^[\s\0]*[/\\]{2}/;
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);

function refused(message: string, target: string): HttpError {
  return createError({ ...RENDERER_ERRORS.RENDERER_NAVIGATION_REFUSED(message), data: { to: target } });
}

/** Classifies a target, or throws the refusal (an HttpError, status 400) with a clear message. */
export function resolveNavigationTarget(to: string | undefined, options: Pick<NavigateOptions, 'external'> = {}): NavigationTarget {
  const target = to || '/';
  const cleaned = target.replace(IGNORED_BY_BROWSERS, '');
  const script = SCRIPT_PROTOCOL.exec(cleaned);
  if (script) throw refused(`Cannot navigate to a URL with '${script[1]!.toLowerCase()}:' protocol.`, target);
  if (HAS_PROTOCOL.test(cleaned) || PROTOCOL_RELATIVE.test(cleaned)) {
    if (!options.external) {
      throw refused(
        `Navigating to an external URL is not allowed by default. Use navigate(url, { external: true }) for ${JSON.stringify(target)}.`,
        target,
      );
    }
    return { kind: 'external', url: cleaned.trim() };
  }
  // A same-site path: never let it read as `//host` once joined to the origin.
  const path = cleaned.startsWith('/') ? cleaned.replace(/^[/\\]+/, '/') : `/${cleaned}`;
  return { kind: 'internal', path };
}

/** The status of a server-side redirect: the given one if it is a redirect status, else 302. */
export function redirectStatus(code: number | undefined): number {
  return code !== undefined && REDIRECT_CODES.has(code) ? code : 302;
}

/** `open.windowFeatures` as window.open wants them: `k=v` pairs, lower-cased keys. */
export function windowFeaturesString(features: Record<string, string | number | boolean> | undefined): string | undefined {
  if (!features) return undefined;
  return Object.entries(features)
    .map(([key, value]) => `${key.toLowerCase()}=${typeof value === 'boolean' ? (value ? 'yes' : 'no') : value}`)
    .join(', ');
}

let clientRouter: Pick<Router, 'navigate'> | null = null;

/** The browser entry hands its router over once it exists. */
export function setNavigationRouter(router: Pick<Router, 'navigate'> | null): void {
  clientRouter = router;
}

/**
 * Navigates, or throws a redirect on the server. The promise settles when a client navigation
 * has finished; an external or full-page navigation never settles (the page is going away).
 */
export async function navigate(to: string | undefined, options: NavigateOptions = {}): Promise<void> {
  const target = resolveNavigationTarget(to, options);
  const destination = target.kind === 'internal' ? target.path : target.url;
  if (typeof window === 'undefined') throw redirect(destination, redirectStatus(options.redirectCode));
  if (options.open) {
    window.open(destination, options.open.target ?? '_blank', windowFeaturesString(options.open.windowFeatures));
    return;
  }
  if (target.kind === 'external' || !clientRouter) {
    if (options.replace) window.location.replace(destination);
    else window.location.assign(destination);
    return new Promise<void>(() => undefined);
  }
  await clientRouter.navigate(destination, { replace: options.replace ?? false });
}
