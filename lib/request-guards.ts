/**
 * Requests refused before any route reads them, in the one error shape (lib/service.ts answers):
 * a declared body larger than the limit (413), including before `100 Continue` is sent, so a
 * client that waits for it (curl does above 1 MiB) never uploads a body it would only lose.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError } from './errors.js';

/** The Content-Length a request declares, or null when it declares none. */
export function declaredLength(request: IncomingMessage): number | null {
  const value = request.headers['content-length'];
  if (value === undefined) return null;
  const length = Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

export function registerRequestGuards(app: FastifyInstance, bodyLimit: number): void {
  // Node sends `100 Continue` by itself unless someone listens: then only a body that fits is asked for.
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if ((declaredLength(request) ?? 0) <= bodyLimit) response.writeContinue();
    app.server.emit('request', request, response);
  });

  app.addHook('onRequest', async (request, reply) => {
    const length = declaredLength(request.raw);
    if (length !== null && length > bodyLimit) {
      // The body is not read: the connection cannot carry another request after it.
      reply.header('connection', 'close');
      throw createError({ statusCode: 413, message: `The request body is larger than ${bodyLimit} bytes` });
    }
  });
}
