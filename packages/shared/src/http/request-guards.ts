/**
 * Requests refused before any route reads them, in the one error shape (packages/shared/src/http/service.ts answers):
 * a declared body larger than the limit (413), including before `100 Continue` is sent, so a
 * client that waits for it (curl does above 1 MiB) never uploads a body it would only lose; and
 * a compressed request body (415). No route here takes one (a site's forms send a few
 * bytes of JSON), decoding at the edge would invite decompression bombs, and passing it through
 * would leave each upstream to decode it or misread it; RFC 7694 answers 415 with the encodings
 * accepted (identity only).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError } from '../errors/errors.js';
import { LIB_ERRORS } from '../errors/error-codes.js';
import { isLingering, lingerOnClose } from './lingering-close.js';

/** The Content-Length a request declares, or null when it declares none. */
export function declaredLength(request: IncomingMessage): number | null {
  const value = request.headers['content-length'];
  if (value === undefined) return null;
  const length = Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

/** The request carries a body (a length above 0, or chunks). */
function hasBody(request: IncomingMessage): boolean {
  return (declaredLength(request) ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** A Content-Encoding other than identity on a request body. */
export function encodedBody(request: IncomingMessage): string | null {
  const value = request.headers['content-encoding']?.trim().toLowerCase();
  if (!value || value === 'identity' || !hasBody(request)) return null;
  return value;
}

/**
 * The client broke its own request: it went away mid-body or before the answer, or sent bytes its
 * Content-Length or chunking did not announce (the parser then fails on the next "request" and
 * the connection is closed under this one). Whatever error that
 * caused downstream (an aborted read, an upstream reset) is the client's fault: a 4xx at info,
 * never an operator's page.
 */
export function clientBrokeRequest(request: IncomingMessage, response?: ServerResponse): boolean {
  // Not writable: the connection was ended under the request, e.g. by the answer to garbage the
  // client sent after it on the same connection (packages/shared/src/http/parser-refusals.ts).
  // (In-process requests, app.inject, have a stand-in socket with neither property.)
  // An aborted body alone is not the client's doing while its connection lives: the proxy destroys
  // the body it was streaming when the upstream refused it (which also detaches the request's
  // socket), and a POST to a renderer that is down is a 502.
  const socket = (request.socket ?? response?.socket) as IncomingMessage['socket'] | null | undefined;
  if (socket?.destroyed === true || socket?.writable === false) return true;
  return request.readableAborted && Boolean(request.socket);
}

/** The answer ends the connection, lingering so a client still sending the body reads it. */
export function closeAfter(reply: FastifyReply): void {
  reply.header('connection', 'close');
  // In-process requests (app.inject) have a stand-in socket, which never closes.
  if (reply.raw.socket && 'destroySoon' in reply.raw.socket) lingerOnClose(reply.raw.socket);
}

/** A phase of a request: an error to answer with, 'answered' when it ended the request itself, or undefined to go on. */
export type RequestPhase = (request: FastifyRequest, reply: FastifyReply) => Error | 'answered' | undefined;

/**
 * Node's `Expect` handling handed to the app, and the guards as an onRequest hook or, with
 * `handOver`, as a phase the caller runs in a list of its own (the gateway's pipeline.ts).
 */
export function registerRequestGuards(app: FastifyInstance, bodyLimit: number, handOver?: (guards: RequestPhase) => void): void {
  // Node sends `100 Continue` by itself unless someone listens: then only a body that fits is asked for.
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if ((declaredLength(request) ?? 0) <= bodyLimit) response.writeContinue();
    app.server.emit('request', request, response);
  });
  // Any other expectation is refused with 417 by the guards, instead of Node's empty answer.
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    app.server.emit('request', request, response);
  });
  const guards = requestGuards(bodyLimit);
  if (handOver) return handOver(guards);
  // A callback hook, not an async one: it runs on every request, and an async hook makes Fastify
  // wait a microtask before the next one (the gateway's cache hits among them).
  app.addHook('onRequest', (request, reply, done) => {
    const outcome = guards(request, reply);
    if (outcome !== 'answered') done(outcome);
  });
}

/** The guards of every request, in the order they are checked. */
export function requestGuards(bodyLimit: number): RequestPhase {
  return (request, reply) => {
    // A client that sends another request after being told the connection closes is not answered.
    const socket = request.raw.socket as IncomingMessage['socket'] | null;
    if (socket && isLingering(socket)) {
      reply.hijack();
      socket.destroy();
      return 'answered';
    }
    return refusal(request, reply, bodyLimit);
  };
}

function refusal(request: FastifyRequest, reply: FastifyReply, bodyLimit: number): Error | undefined {
  // Node's parser takes `HTTP/2.0` (and a bare `GET /`) and would serve them as HTTP/1.
  if (request.raw.httpVersionMajor !== 1) {
    closeAfter(reply);
    return createError(LIB_ERRORS.LIB_HTTP_VERSION_UNSUPPORTED());
  }
  if (request.raw.httpVersionMinor === 0 && request.headers['transfer-encoding'] !== undefined) {
    // RFC 9112 §6.1: HTTP/1.0 has no Transfer-Encoding, so the message's framing is faulty and the
    // connection must close after it; whatever was pipelined behind it is never run.
    closeAfter(reply);
    return createError(LIB_ERRORS.LIB_HTTP10_TRANSFER_ENCODING());
  }
  if (request.raw.httpVersion === '1.1' && !request.headers.host) return createError(LIB_ERRORS.LIB_HOST_REQUIRED());
  const expect = request.headers.expect;
  if (expect !== undefined && expect.toLowerCase() !== '100-continue') {
    closeAfter(reply);
    return createError(LIB_ERRORS.LIB_EXPECT_UNSUPPORTED());
  }
  const length = declaredLength(request.raw);
  if (length !== null && length > bodyLimit) {
    // The body is not read: the connection cannot carry another request after it.
    closeAfter(reply);
    return createError(LIB_ERRORS.LIB_BODY_TOO_LARGE(bodyLimit));
  }
  if (encodedBody(request.raw)) {
    closeAfter(reply);
    return createError({ ...LIB_ERRORS.LIB_BODY_ENCODED(), headers: { 'accept-encoding': 'identity' } });
  }
  return undefined;
}
