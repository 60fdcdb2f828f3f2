/** The browser's calls to the accounts API, each answering the parsed body or the error body. */
import type { ErrorBody } from '../../../../../../lib/errors.js';
import { isMutation, notifyMutation } from '../../../runtime/shared/mutations.js';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export type ApiResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error: ErrorBody };

async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      error: {
        url,
        statusCode: 0,
        statusMessage: 'Network error',
        message: 'The site could not be reached. Check your connection and try again.',
      },
    };
  }
  if (isMutation(method)) notifyMutation();
  const parsed: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, body: parsed as T };
  const error = (parsed as ErrorBody | null) ?? {
    url,
    statusCode: response.status,
    statusMessage: response.statusText,
    message: response.statusText,
  };
  return { ok: false, status: response.status, error };
}

export const signIn = (email: string, password: string) => call<{ user: SessionUser }>('POST', '/api/auth/login', { email, password });
export const signOut = () => call<{ user: null }>('POST', '/api/auth/logout');
export const saveRecipe = (recipeId: string) => call<{ saved: boolean }>('POST', `/api/saved/${encodeURIComponent(recipeId)}`);
export const unsaveRecipe = (recipeId: string) => call<{ saved: boolean }>('DELETE', `/api/saved/${encodeURIComponent(recipeId)}`);

/** The field messages of a 400 answer, if it has them. */
export function fieldErrorsOf(error: ErrorBody): Record<string, string> {
  const fields = (error.data as { fields?: unknown } | undefined)?.fields;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}
