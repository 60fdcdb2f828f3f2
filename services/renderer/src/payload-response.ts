/**
 * `{route}/_payload.json?{buildId}`: the same data the page inlines, for client navigations.
 * It carries the build id (body and header) so a client on an old build can tell; a path with
 * no page, or one whose validate fails, is a 404 in the one error shape.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageSearchOfPayload, type Payload } from '@tern/runtime/shared/payload';
import { parseCookie } from 'cookie';
import { PERSONAL_HEADER } from '@tern/shared/config/constants';
import { queryOutcome } from './page-query.js';
import { buildHeaders, type RenderContext } from './render-context.js';

/** A loader's redirect, as the payload says it (fetch would otherwise follow it to HTML). */
export interface PayloadRedirect {
  buildId: string;
  redirect: { to: string; statusCode: number };
}

/** Whether the request carries the site's session cookie (the build meta names it). */
function signedIn(context: RenderContext, cookieHeader: string | undefined): boolean {
  return Boolean(context.sessionCookie && cookieHeader && parseCookie(cookieHeader)[context.sessionCookie] !== undefined);
}

export async function answerPayload(
  context: RenderContext,
  request: FastifyRequest,
  reply: FastifyReply,
  pagePath: string,
): Promise<FastifyReply> {
  const search = pageSearchOfPayload(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
  const outcome = await queryOutcome(context, request, reply, `${pagePath}${search}`);
  // A signed-in visitor's data is theirs alone; an anonymous payload may be shared (the gateway's cache).
  const personal = signedIn(context, request.headers.cookie);
  reply.headers({
    ...buildHeaders(context),
    'cache-control': personal ? 'private, no-cache' : ((outcome.kind === 'page' && outcome.query.cacheControl) || 'no-cache'),
    vary: 'cookie',
    'x-content-type-options': 'nosniff',
    // The same for every visitor (the page says so): the gateway may answer signed-in visitors from the cache.
    ...(context.personal && outcome.kind === 'page' && outcome.query.personalParts ? { [PERSONAL_HEADER]: 'parts' } : {}),
  });
  reply.type('application/json; charset=utf-8');
  if (outcome.kind === 'redirect') {
    const body: PayloadRedirect = { buildId: context.build.id, redirect: { to: outcome.location, statusCode: outcome.status } };
    return reply.code(200).send(body);
  }
  if (outcome.firstError) {
    // The error's url is the address asked for, the payload's own.
    return reply
      .code(outcome.statusCode)
      .headers(outcome.errorHeaders)
      .send({ ...outcome.firstError, url: request.url });
  }
  const payload: Payload = { buildId: context.build.id, path: pagePath, data: outcome.query.data, errors: null };
  return reply.code(200).send(payload);
}
