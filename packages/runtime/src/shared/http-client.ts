/**
 * The HTTP client (docs/spec.md §7), on ofetch: the base URL comes from the app config, a JSON body is
 * sent with JSON content-type and accept headers, 400 to 599 throw the one error shape
 * (packages/shared/src/errors/errors.ts HttpError), and retries happen only on 408, 409, 425, 429, 500, 502, 503, 504:
 * none by default for PATCH, POST, PUT and DELETE, one for any other method. Browser-safe.
 */
import { FetchError, ofetch, type FetchOptions } from 'ofetch';
import { createError, reviveError, type ErrorBody, type HttpError } from '@tern/shared/errors/errors';
import { RENDERER_ERRORS } from '../error-codes.js';
import { APP_CONFIG_ELEMENT_ID } from './app-config.js';
import { isMutation, notifyMutation } from './mutations.js';

/** docs/spec.md §7: the statuses the client retries on, and its default retry counts. */
export const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504] as const;
export const NO_RETRY_METHODS = ['PATCH', 'POST', 'PUT', 'DELETE'] as const;
export const DEFAULT_RETRIES = 1;

export interface HttpClientOptions {
  /** Where relative URLs point; the app config's `baseURL` (default `/`) in the browser. */
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  /** Milliseconds between a failure and its retry (default 0). */
  retryDelay?: number;
}

export type HttpRequestOptions = Omit<FetchOptions<'json'>, 'retryStatusCodes'> & { retry?: number | false };

export interface HttpClient {
  <T = unknown>(url: string, options?: HttpRequestOptions): Promise<T>;
}

/** How many times a request is retried: the explicit number, else 0 for PATCH/POST/PUT/DELETE and 1 otherwise. */
export function retriesFor(method: string | undefined, explicit?: number | false): number {
  if (explicit === false) return 0;
  if (typeof explicit === 'number') return Math.max(0, Math.floor(explicit));
  return (NO_RETRY_METHODS as readonly string[]).includes((method ?? 'GET').toUpperCase()) ? 0 : DEFAULT_RETRIES;
}

function isErrorBody(value: unknown): value is Partial<ErrorBody> {
  return typeof value === 'object' && value !== null && ('statusMessage' in value || 'message' in value);
}

/** An ofetch failure as the app's error: the server's error body when it sent one. */
export function toClientError(error: unknown, url: string): HttpError {
  if (!(error instanceof FetchError))
    return createError({
      ...RENDERER_ERRORS.RENDERER_HTTP_CLIENT_FAILED(error instanceof Error ? error.message : String(error)),
      cause: error,
    });
  const status = error.status;
  if (status === undefined) {
    // No answer at all (offline, refused, aborted): not a server status, so a 503 says "try later".
    const why = error.cause instanceof Error ? error.cause.message : error.message;
    return createError({ ...RENDERER_ERRORS.RENDERER_NETWORK_ERROR(url, why), data: { url }, cause: error });
  }
  // The server's own error, revived with the server's code.
  const body = isErrorBody(error.data) ? error.data : undefined;
  return reviveError(
    {
      statusCode: status,
      statusMessage: typeof body?.statusMessage === 'string' ? body.statusMessage : error.statusText || undefined,
      message: typeof body?.message === 'string' ? body.message : `[${error.options?.method ?? 'GET'}] ${url}: ${status}`,
      code: typeof body?.code === 'string' ? body.code : undefined,
      data: body?.data ?? { url },
    },
    error,
  );
}

function browserBaseURL(): string {
  if (typeof document === 'undefined') return '';
  const text = document.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
  const config = text ? (JSON.parse(text) as { baseURL?: unknown }) : {};
  return typeof config.baseURL === 'string' ? config.baseURL : '/';
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const fetcher = ofetch.create({}, options.fetch ? { fetch: options.fetch } : undefined);
  return async <T>(url: string, request: HttpRequestOptions = {}): Promise<T> => {
    const baseURL = request.baseURL ?? options.baseURL ?? browserBaseURL();
    try {
      return (await fetcher<T>(url, {
        ...request,
        ...(baseURL ? { baseURL } : {}),
        retry: retriesFor(request.method, request.retry),
        retryStatusCodes: [...RETRY_STATUS_CODES],
        retryDelay: request.retryDelay ?? options.retryDelay ?? 0,
      })) as T;
    } catch (error) {
      throw toClientError(error, url);
    } finally {
      // Even a failed write may have changed something on the server.
      if (isMutation(request.method)) notifyMutation();
    }
  };
}

/** The app's client: relative URLs go to the app config's base URL. */
export const http: HttpClient = createHttpClient();
