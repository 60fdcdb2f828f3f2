/**
 * Route middleware (Nuxt's): global ones run before every page, named ones come from the one
 * registry (src/app/middleware.ts), inline ones are declared by a page. The same list runs on
 * the server (before the page's loader, for pages and payloads) and in the browser (before a
 * client navigation fetches anything). A middleware may redirect, abort or raise an error.
 * Browser-safe.
 */
import { redirect } from 'react-router';
import { createError, isHttpError, type HttpError } from '@tern/shared/errors/errors';
import { RENDERER_ERRORS } from '../error-codes.js';
import { redirectStatus, resolveNavigationTarget } from './navigate.js';
import type { RouteTarget } from './route-target.js';

export interface MiddlewareContext {
  /** Where the middleware runs: the server (page or payload request) or the browser. */
  side: 'server' | 'client';
  request: Request;
  /** The server's request context (React Router's); absent in the browser. */
  context?: unknown;
}

/**
 * What a middleware answers: nothing or `true` to go on, `false` to abort (a 404), a path to
 * redirect to (or `{ to, statusCode }`), or an Error to show. Throwing works as well.
 */
export type MiddlewareResult = void | undefined | boolean | string | { to: string; statusCode?: number } | Error;

export type RouteMiddleware = (to: RouteTarget, context: MiddlewareContext) => MiddlewareResult | Promise<MiddlewareResult>;

/** A page names a registered middleware or gives its own function. */
export type MiddlewareRef = string | RouteMiddleware;

export interface MiddlewareRegistry {
  global: readonly RouteMiddleware[];
  named: Readonly<Record<string, RouteMiddleware>>;
}

export function unknownMiddleware(name: string): HttpError {
  return createError({ ...RENDERER_ERRORS.RENDERER_UNKNOWN_MIDDLEWARE(name), data: { middleware: name } });
}

/** Global ones first, then the page's in its order; a name missing from the registry throws. */
export function resolveMiddleware(
  registry: MiddlewareRegistry,
  page: MiddlewareRef | readonly MiddlewareRef[] | undefined,
): RouteMiddleware[] {
  const refs = page === undefined ? [] : Array.isArray(page) ? page : [page as MiddlewareRef];
  const list = new Set<RouteMiddleware>(registry.global);
  for (const ref of refs) {
    if (typeof ref === 'function') {
      list.add(ref);
      continue;
    }
    const found = Object.hasOwn(registry.named, ref) ? registry.named[ref] : undefined;
    if (!found) throw unknownMiddleware(ref);
    list.add(found);
  }
  return [...list];
}

/** Turns a non-continuing answer into what React Router understands: a thrown redirect or error. */
function settle(result: MiddlewareResult, to: RouteTarget): void {
  if (result === undefined || result === true) return;
  if (result === false) {
    throw createError({ ...RENDERER_ERRORS.RENDERER_MIDDLEWARE_REFUSED(to.fullPath), data: { path: to.fullPath } });
  }
  if (result instanceof Error)
    throw isHttpError(result) ? result : createError({ ...RENDERER_ERRORS.RENDERER_MIDDLEWARE_FAILED(result.message), cause: result });
  const given = typeof result === 'string' ? { to: result } : result;
  if (!given || typeof given.to !== 'string') throw createError(RENDERER_ERRORS.RENDERER_MIDDLEWARE_BAD_RESULT());
  // A middleware redirect to another site is refused: only navigate(..., { external: true }) leaves.
  const target = resolveNavigationTarget(given.to);
  throw redirect(target.kind === 'internal' ? target.path : target.url, redirectStatus(given.statusCode));
}

/** Runs the list in order; the first that does not go on decides (by throwing). */
export async function runMiddleware(list: readonly RouteMiddleware[], to: RouteTarget, context: MiddlewareContext): Promise<void> {
  for (const run of list) settle(await run(to, context), to);
}
