/**
 * Cross-site request forgery guard: a state-changing request must name this site as its Origin
 * (or, lacking one, its Referer). SameSite=Lax already stops most; this stops the rest.
 */
import { requestOrigin } from '@tern/site/server';
import type { FastifyRequest } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { COOKBOOK_SERVER_ERRORS } from '../error-codes.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOfHeader(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text || text === 'null') return null;
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}

/** Throws 403 unless the request is safe or comes from the request's own origin. */
export function checkOrigin(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const claimed = originOfHeader(request.headers.origin) ?? originOfHeader(request.headers.referer);
  // Through URL so a default port (host:80 over http) compares equal to its absence.
  const own = new URL(requestOrigin(request)).origin;
  if (claimed === own) return;
  throw createError(COOKBOOK_SERVER_ERRORS.COOKBOOK_CROSS_SITE_REFUSED(claimed, own));
}
