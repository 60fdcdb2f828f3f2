/**
 * Requests Node's parser refuses before Fastify sees them (a bad request line, an unknown method,
 * obs-fold, Content-Length with Transfer-Encoding, headers over the limit, a read timeout): the
 * answer is written to the socket directly, still in the one error shape (the page for browsers,
 * JSON for JSON clients), with a request id, the service's edge headers, `Connection: close`,
 * and an access line.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { REQUEST_ID_HEADER } from '../config/constants.js';
import { createError, reasonPhrase, renderStaticErrorPage, toErrorBody, wantsJson } from '../errors/errors.js';
import { LIB_ERRORS } from '../errors/error-codes.js';
import { jsonByPath } from './wants-json.js';

/** What could be read of the refused request: enough to choose the status and JSON or HTML. */
export interface RawRequestHead {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The request line's length in bytes (as far as it was read). */
  lineLength: number;
}

const PRINTABLE_TARGET = /^[\x21-\x7e]{1,2048}$/;

/** Reads the request line and headers out of the bytes the parser failed on, leniently. */
export function readRawHead(packet: Buffer | undefined): RawRequestHead {
  const text = packet ? packet.toString('latin1', 0, Math.min(packet.length, 64 * 1024)) : '';
  const lineEnd = text.indexOf('\r\n');
  const [method = '', target = ''] = (lineEnd >= 0 ? text.slice(0, lineEnd) : text).split(' ');
  const headers: Record<string, string> = {};
  if (lineEnd >= 0) {
    for (const line of text.slice(lineEnd + 2).split('\r\n')) {
      if (!line) break;
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
    }
  }
  // Only a plain origin-form target is echoed back in the body; anything else is reported as `/`.
  const url = target.startsWith('/') && PRINTABLE_TARGET.test(target) ? target : '/';
  return { method: /^[A-Z]{1,20}$/.test(method) ? method : '', url, headers, lineLength: lineEnd >= 0 ? lineEnd : text.length };
}

/** A request line longer than this in a head that overflowed is a URL too long rather than headers. */
const LONG_LINE = 8 * 1024;

/** The status for a parser error: 431 headers too large (414 when the line itself is), 408, 405, else 400. */
export function clientErrorStatus(code: string | undefined, head: RawRequestHead): ClientErrorStatus {
  if (code === 'HPE_HEADER_OVERFLOW') return head.lineLength > LONG_LINE ? 414 : 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') return 408;
  if (code === 'HPE_INVALID_METHOD') return 405;
  return 400;
}

const ERRORS = {
  400: LIB_ERRORS.LIB_REQUEST_UNREADABLE,
  405: LIB_ERRORS.LIB_METHOD_UNSUPPORTED,
  408: LIB_ERRORS.LIB_REQUEST_TIMEOUT,
  414: LIB_ERRORS.LIB_URL_TOO_LONG,
  431: LIB_ERRORS.LIB_HEADERS_TOO_LARGE,
} as const;

export type ClientErrorStatus = keyof typeof ERRORS;

export interface ClientErrorOptions {
  /** Headers every answer of the service carries (the gateway's security headers). */
  edgeHeaders?: Record<string, string>;
  /** The Allow header for a method the parser did not know. */
  allowOf: (path: string) => string[];
}

export function clientErrorAnswer(error: { code?: string }, packet: Buffer | undefined, options: ClientErrorOptions) {
  const head = readRawHead(packet);
  return rawErrorAnswer(clientErrorStatus(error.code, head), head, options);
}

/** An error answer as bytes for a socket Fastify never got to handle. */
export function rawErrorAnswer(statusCode: ClientErrorStatus, head: RawRequestHead, options: ClientErrorOptions) {
  const id = randomUUID();
  const error = createError(ERRORS[statusCode]());
  const body = toErrorBody(error, head.url);
  const json = wantsJson({ url: head.url, headers: head.headers });
  const payload = json ? JSON.stringify(body) : renderStaticErrorPage(body);
  const headers: Record<string, string> = {
    ...options.edgeHeaders,
    ...error.headers,
    'content-type': json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(payload)),
    'cache-control': 'no-store',
    // The body is the page or JSON as Accept chose (packages/shared/src/http/wants-json.ts errorCacheHeaders).
    ...(jsonByPath(head.url) ? {} : { vary: 'accept' }),
    [REQUEST_ID_HEADER]: id,
    connection: 'close',
  };
  if (statusCode === 405) headers.allow = options.allowOf(head.url.split('?')[0] ?? '/').join(', ');
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const bytes = `HTTP/1.1 ${statusCode} ${reasonPhrase(statusCode)}\r\n${lines.join('\r\n')}\r\n\r\n${payload}`;
  return { id, statusCode, head, bytes };
}

type RawAnswer = ReturnType<typeof rawErrorAnswer>;

/** Writes the answer, logs its access line and closes the socket. */
function sendRaw(logger: FastifyBaseLogger, socket: Duplex, answer: RawAnswer, code?: string): void {
  logger.info({ reqId: answer.id, method: answer.head.method, path: answer.head.url, status: answer.statusCode, code }, 'request');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(answer.bytes, () => socket.destroy());
}

/** Fastify's clientErrorHandler: the answer above, then the socket is closed. */
export function clientErrorHandler(logger: FastifyBaseLogger, options: ClientErrorOptions) {
  return function onClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
    // A reset connection has nobody to answer (Node's own rule).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    sendRaw(logger, socket, clientErrorAnswer(error, Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined, options), error.code);
  };
}

/** CONNECT (no service is a forward proxy): Node would drop the socket without a word. */
export function answerConnect(logger: FastifyBaseLogger, options: ClientErrorOptions) {
  return function onConnect(request: IncomingMessage, socket: Duplex): void {
    const head: RawRequestHead = { method: 'CONNECT', url: '/', headers: { accept: String(request.headers.accept ?? '') }, lineLength: 0 };
    sendRaw(logger, socket, rawErrorAnswer(405, head, options));
  };
}
