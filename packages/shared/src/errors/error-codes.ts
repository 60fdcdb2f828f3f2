/**
 * The codes of errors raised by shared code (lib/): the request guards, Node's parser refusals, the
 * routes nobody serves and a Redis outage. Every service may answer them.
 */
import { defineErrors } from './error-catalogue.js';

export const LIB_ERRORS = defineErrors({
  LIB_MALFORMED_URL: { statusCode: 400, message: 'Malformed request URL' },
  LIB_URL_TOO_LONG: { statusCode: 414, message: 'The request URL is too long' },
  LIB_ROUTE_NOT_FOUND: { statusCode: 404, statusMessage: (path: string) => `Page not found: ${path}` },
  LIB_METHOD_NOT_ALLOWED: {
    statusCode: 405,
    message: (method: string, allowed: readonly string[]) => `${method} is not allowed here; use ${allowed.join(', ')}`,
  },
  LIB_REQUEST_INCOMPLETE: { statusCode: 400, message: 'The request was incomplete' },
  LIB_HTTP_VERSION_UNSUPPORTED: { statusCode: 400, message: 'Only HTTP/1.0 and HTTP/1.1 are served here' },
  LIB_HTTP10_TRANSFER_ENCODING: { statusCode: 400, message: 'An HTTP/1.0 request cannot use Transfer-Encoding' },
  LIB_HOST_REQUIRED: { statusCode: 400, message: 'A Host header is required' },
  LIB_EXPECT_UNSUPPORTED: { statusCode: 417, message: 'Only Expect: 100-continue is supported' },
  LIB_BODY_TOO_LARGE: { statusCode: 413, message: (limit: number) => `The request body is larger than ${limit} bytes` },
  LIB_BODY_ENCODED: { statusCode: 415, message: 'Compressed request bodies are not accepted; send it with no Content-Encoding' },
  // Node's parser refusals (packages/shared/src/http/parser-refusals.ts), answered before Fastify sees the request.
  LIB_REQUEST_UNREADABLE: { statusCode: 400, message: 'The request could not be read' },
  LIB_METHOD_UNSUPPORTED: { statusCode: 405, message: 'This method is not supported' },
  LIB_REQUEST_TIMEOUT: { statusCode: 408, message: 'The request took too long to arrive' },
  LIB_HEADERS_TOO_LARGE: { statusCode: 431, message: 'The request headers are too large' },
  LIB_STORE_UNAVAILABLE: { statusCode: 503, message: 'The account store is unavailable; try again shortly.' },
});
