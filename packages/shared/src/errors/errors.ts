/**
 * One error shape everywhere: `{ url, statusCode, statusMessage, message, code, data?, fatal? }` as
 * JSON for clients that want JSON, otherwise the error page; and the one normaliser that turns any
 * thrown value into it, used by every service, the SSR bundle and the browser. An error carries a
 * stable `code` (from its service's catalogue, packages/shared/src/errors/error-catalogue.ts) and the headers its answer
 * needs (Retry-After). Browser-safe: no Node imports.
 */

export interface ErrorBody {
  url: string;
  statusCode: number;
  statusMessage: string;
  message: string;
  /** The stable machine name: a catalogue's code, or `HTTP_<status>` for an error nobody coded. */
  code: string;
  data?: unknown;
  /** Present (true) only for a fatal error: it shows the error page even during a client navigation. */
  fatal?: boolean;
}

export interface HttpErrorInit {
  /** Required, so `tsc` refuses an error made without one; catalogues make it (packages/shared/src/errors/error-catalogue.ts). */
  code: string;
  statusCode?: number;
  statusMessage?: string;
  message?: string;
  data?: unknown;
  /** A fatal error shows the error page even during a client navigation. */
  fatal?: boolean;
  cause?: unknown;
  /** Headers every error handler sends with the answer (names in lower case). */
  headers?: Record<string, string>;
  /** The one way to set Retry-After: seconds, sent as the `retry-after` header. */
  retryAfterS?: number;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  411: 'Length Required',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The standard reason phrase of a status, for statusMessage defaults. */
export function reasonPhrase(statusCode: number): string {
  return REASONS[statusCode] ?? (statusCode >= 500 ? 'Internal Server Error' : 'Error');
}

/** The code of an error nobody coded (a foreign or revived one): `HTTP_` and its status. */
export function defaultCode(statusCode: number): string {
  return `HTTP_${statusCode}`;
}

/** Statuses outside 400-599 are not errors; they fall back to 500 (SPEC: default status). */
export function sanitizeStatusCode(value: unknown, fallback = 500): number {
  const code = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(code) && code >= 400 && code <= 599 ? code : fallback;
}

/**
 * The marker of the HttpError class, read instead of `instanceof` (as h3 reads `__h3_error__`):
 * the SSR bundle and the browser each carry their own copy of this module, and an error made by
 * one copy must be recognised by another.
 */
const MARKER = '__http_error__';

export class HttpError extends Error {
  static readonly [MARKER] = true;
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly data: unknown;
  readonly fatal: boolean;

  constructor(init: HttpErrorInit) {
    const statusCode = sanitizeStatusCode(init.statusCode);
    const statusMessage = init.statusMessage ?? reasonPhrase(statusCode);
    super(init.message ?? statusMessage, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.statusMessage = statusMessage;
    this.code = init.code;
    this.headers = headersOf(init);
    this.data = init.data;
    this.fatal = init.fatal ?? false;
  }
}

/** Names in lower case, so a handler's own header of the same name is replaced, not doubled. */
function headersOf(init: HttpErrorInit): Record<string, string> {
  const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  if (init.retryAfterS !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(init.retryAfterS)));
  return headers;
}

/** A 503 that says when to come back: an unavailability announced on purpose, not a failure. */
export function isAnnouncedUnavailable(error: HttpError): boolean {
  return error.statusCode === 503 && error.headers['retry-after'] !== undefined;
}

/** The one way to build an error: `createError({ ...CATALOGUE.CODE(args), data })`; an HttpError as it is. */
export function createError(input: HttpErrorInit | HttpError): HttpError {
  return isHttpError(input) ? input : new HttpError(input);
}

/** An HttpError of any copy of this module. */
export function isHttpError(value: unknown): value is HttpError {
  const type = (value as { constructor?: Record<string, unknown> } | null | undefined)?.constructor;
  return typeof type === 'function' && type[MARKER] === true;
}

/**
 * The JSON body of an error. The message (and data) of an unexpected 5xx error, one nobody made
 * with createError, are not leaked unless `exposeMessage` (development).
 */
export function toErrorBody(error: unknown, url: string, exposeMessage = true): ErrorBody {
  const http = toHttpError(error);
  const hide = !exposeMessage && http.statusCode >= 500 && !isHttpError(error);
  const body: ErrorBody = {
    url,
    statusCode: http.statusCode,
    statusMessage: http.statusMessage,
    message: hide ? http.statusMessage : http.message,
    code: hide ? defaultCode(http.statusCode) : http.code,
  };
  if (http.data !== undefined && !hide) body.data = http.data;
  if (http.fatal) body.fatal = true;
  return body;
}

/**
 * Any thrown value as an HttpError: HttpErrors of any copy as they are, React Router's route
 * errors (`ErrorResponse`: status, statusText), errors that carry a `statusCode` or `status`
 * (Fastify's, http-errors'), and anything else as a 500.
 */
export function toHttpError(error: unknown): HttpError {
  if (isHttpError(error)) return error;
  if (error && typeof error === 'object') {
    const e = error as { statusCode?: unknown; status?: unknown; statusText?: unknown; message?: unknown };
    if (typeof e.status === 'number' && 'statusText' in e) {
      const statusCode = sanitizeStatusCode(e.status);
      return new HttpError({
        code: defaultCode(statusCode),
        statusCode,
        statusMessage: String(e.statusText || '') || undefined,
        cause: error,
      });
    }
    const statusCode = sanitizeStatusCode(e.statusCode ?? e.status);
    const message = typeof e.message === 'string' ? e.message : undefined;
    // Not its own code (Fastify's FST_ERR_*, Node's E*): those name internals (tests/integration/bad-input.test.ts).
    return new HttpError({ code: defaultCode(statusCode), statusCode, message, cause: error });
  }
  return new HttpError({ code: defaultCode(500), cause: error });
}

/** What a revived error needs of a body: a status; the rest falls back (a body of an older build has no code). */
export type RevivableBody = Pick<ErrorBody, 'statusCode'> & Partial<Omit<ErrorBody, 'statusCode'>>;

/** An error body (from a payload or an API answer) back into an HttpError the error page can show. */
export function reviveError(body: RevivableBody, cause?: unknown): HttpError {
  const { statusCode, statusMessage, message, code, data, fatal } = body;
  return new HttpError({ statusCode, statusMessage, message, data, code: code ?? defaultCode(statusCode), fatal: fatal === true, cause });
}

export const UNAVAILABLE_TITLE = 'Service unavailable, try again';

/**
 * docs/spec.md §2: the error page's headline, except that a 502, 503 or 504 says what happened
 * (a service is away or slow, which a reload may mend) rather than "Internal Server Error".
 */
export function errorPageTitle(statusCode: number): string {
  if (statusCode === 404) return 'Page Not Found';
  return statusCode >= 502 && statusCode <= 504 ? UNAVAILABLE_TITLE : 'Internal Server Error';
}

// Server-side only, in a file of its own: the browser bundle imports this file, and not the image URL space.
export { wantsJson } from '../http/wants-json.js';

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => escapes[c]!);
}

/**
 * A small self-contained error page for the services that have no React renderer (the gateway
 * when an upstream is down, the image and icon services). Same headline rules as the site's;
 * `detail`, a line under the headline, says more where the gateway knows it (the site is starting).
 */
export function renderStaticErrorPage(body: ErrorBody, nonce?: string, detail?: string): string {
  const title = errorPageTitle(body.statusCode);
  const more = detail ? `<p>${escapeHtml(detail)}</p>` : '';
  const style = nonce ? ` nonce="${escapeHtml(nonce)}"` : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${body.statusCode} ${escapeHtml(title)}</title><style${style}>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f8fafc;color:#0f172a}@media (prefers-color-scheme:dark){body{background:#020617;color:#e2e8f0}}main{text-align:center;padding:2rem}h1{font-size:4rem;margin:0}p{margin:.5rem 0 1.5rem}a{color:#15803d}@media (prefers-color-scheme:dark){a{color:#4ade80}}</style></head><body><main data-error-page><h1>${body.statusCode}</h1><p>${escapeHtml(title)}</p>${more}<a href="/">Go back home</a></main></body></html>`;
}
