/**
 * Nuxt's route errors: a path with no route is a 404 `Page not found: {path}`; a page whose
 * `validate` fails is a fatal 404 `Page Not Found: {path}`, unless the validator gives its own
 * status and message. Browser-safe.
 */
import { createError, type HttpError } from '../../../../../lib/errors.js';
import type { PageValidate } from './page-module.js';
import type { RouteTarget } from './route-target.js';

export function pageNotFound(fullPath: string): HttpError {
  return createError({ statusCode: 404, statusMessage: `Page not found: ${fullPath}`, data: { path: fullPath } });
}

/** Runs `validate`; anything but `true` throws the fatal error. */
export async function runValidate(validate: PageValidate | undefined, to: RouteTarget): Promise<void> {
  if (!validate) return;
  const result = await validate(to);
  if (result === true) return;
  const own = typeof result === 'object' && result !== null ? result : {};
  throw createError({
    statusCode: own.statusCode ?? 404,
    statusMessage: own.statusMessage ?? `Page Not Found: ${to.fullPath}`,
    message: own.message,
    data: { path: to.fullPath },
    fatal: true,
  });
}
