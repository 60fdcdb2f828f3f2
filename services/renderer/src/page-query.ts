/**
 * Runs the matched routes for a request and reduces the outcome to what an answer needs: a
 * redirect, or the data and errors (in the one error shape) with the status to send.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createError, toErrorBody, toHttpError, type ErrorBody } from '@tern/shared/errors/errors';
import { RENDERER_SERVER_ERRORS } from './error-codes.js';
import { toFetchRequest } from './fetch-request.js';
import type { RenderContext } from './render-context.js';
import type { PageQuery } from '@tern/runtime/server/ssr-entry';

export type PageOutcome =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'page';
      query: PageQuery;
      statusCode: number;
      errors: Record<string, ErrorBody> | null;
      firstError: ErrorBody | null;
      /** The headers the first error carries (Retry-After), sent with its status. */
      errorHeaders: Readonly<Record<string, string>>;
    };

export async function queryOutcome(
  context: RenderContext,
  request: FastifyRequest,
  reply: FastifyReply,
  url: string,
): Promise<PageOutcome> {
  const result = await context.entry.queryPage(toFetchRequest(request, reply, url), context.services);
  if (result instanceof Response) {
    const location = result.headers.get('location');
    if (!location) throw createError(RENDERER_SERVER_ERRORS.RENDERER_LOADER_BAD_RESPONSE());
    return { kind: 'redirect', status: result.status, location };
  }
  const errors = result.errors
    ? Object.fromEntries(Object.entries(result.errors).map(([id, error]) => [id, toErrorBody(error, url, !context.production)]))
    : null;
  const firstError = errors ? (Object.values(errors)[0] ?? null) : null;
  const first: unknown = result.errors ? Object.values(result.errors)[0] : undefined;
  const errorHeaders = first === undefined ? {} : toHttpError(first).headers;
  if (result.errors) logLoaderErrors(request, result.errors);
  return { kind: 'page', query: result, statusCode: firstError?.statusCode ?? 200, errors, firstError, errorHeaders };
}

function logLoaderErrors(request: FastifyRequest, errors: Record<string, unknown>): void {
  for (const error of Object.values(errors)) {
    const status = toErrorBody(error, request.url, true).statusCode;
    if (status >= 500) request.log.error({ err: error }, 'page loader failed');
  }
}
