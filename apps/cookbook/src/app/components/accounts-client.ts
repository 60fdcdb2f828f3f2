/**
 * The browser's calls to the accounts API, through the framework's HTTP client (runtime/http-client.ts:
 * JSON in and out, 400–599 as the one error shape, retries only as docs/spec.md §7 says, so none
 * for these POST and DELETE calls, and a mutation signal that drops preloaded payloads). Each
 * answers the parsed body or the error body, never throws.
 */
import { http } from '@tern/runtime/shared/http-client';
import { defaultCode, type ErrorBody } from '@tern/shared/errors/errors';
import { LOGIN_ROUTE, LOGOUT_ROUTE, savedRecipeRoute } from '../account-routes.js';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export type ApiResult<T> = { ok: true; body: T } | { ok: false; status: number; error: ErrorBody };

/** The HTTP client's name for "no answer at all" (offline, refused, aborted). */
const NETWORK_ERROR = 'Network Error';

async function call<T>(method: 'POST' | 'DELETE', url: string, body?: unknown): Promise<ApiResult<T>> {
  try {
    return { ok: true, body: await http<T>(url, { method, ...(body === undefined ? {} : { body }) }) };
  } catch (thrown) {
    const error = thrown as { statusCode?: number; statusMessage?: string; message?: string; code?: string; data?: unknown };
    if (error.statusMessage === NETWORK_ERROR) {
      return {
        ok: false,
        status: 0,
        error: {
          url,
          statusCode: 0,
          statusMessage: NETWORK_ERROR,
          message: 'The site could not be reached. Check your connection and try again.',
          // The HTTP client's own code for it (the platform's network error).
          code: error.code ?? 'HTTP_503',
        },
      };
    }
    const statusCode = error.statusCode ?? 500;
    return {
      ok: false,
      status: statusCode,
      error: {
        url,
        statusCode,
        statusMessage: error.statusMessage ?? 'Error',
        message: error.message ?? `Could not reach ${url}`,
        code: error.code ?? defaultCode(statusCode),
        ...(error.data === undefined ? {} : { data: error.data }),
      },
    };
  }
}

export const signIn = (email: string, password: string) => call<{ user: SessionUser }>('POST', LOGIN_ROUTE, { email, password });
export const signOut = () => call<{ user: null }>('POST', LOGOUT_ROUTE);
export const saveRecipe = (recipeId: string) => call<{ saved: boolean }>('POST', savedRecipeRoute(recipeId));
export const unsaveRecipe = (recipeId: string) => call<{ saved: boolean }>('DELETE', savedRecipeRoute(recipeId));

/** The field messages of a 400 answer, if it has them. */
export function fieldErrorsOf(error: ErrorBody): Record<string, string> {
  const fields = (error.data as { fields?: unknown } | undefined)?.fields;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}
