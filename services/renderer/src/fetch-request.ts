/**
 * A Fastify request as the fetch Request React Router's handler takes: the public URL (from the
 * gateway's X-Forwarded headers, auth/request-origin.ts), the headers, and a signal that fires if the client goes away.
 *
 * The signal is set on the Request, not passed to its constructor: undici's Request follows a
 * signal it is given with a listener, a WeakRef, a finalizer and a max-listeners check, about
 * 0.1 ms a request (2-3 % of a page's CPU; docs/decisions/performance.md). React Router's query and
 * the loaders read `request.signal`, which is then the controller's own. A clone (`request.clone()`)
 * gets undici's signal, which nothing aborts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { LIB_ERRORS } from '@tern/shared/errors/error-codes';
import { requestOrigin } from '@tern/site/request-origin';
import { sitePath } from './site-url.js';

export function toFetchRequest(request: FastifyRequest, reply: FastifyReply, url = request.url): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  // Whatever the target holds stays a path of this site (site-url.ts). One parse, the Request's own.
  let fetchRequest: Request;
  try {
    fetchRequest = new Request(requestOrigin(request) + sitePath(url), {
      method: request.method === 'HEAD' ? 'GET' : request.method,
      headers,
    });
  } catch {
    throw createError(LIB_ERRORS.LIB_MALFORMED_URL());
  }
  Object.defineProperty(fetchRequest, 'signal', { value: controller.signal });
  return fetchRequest;
}
