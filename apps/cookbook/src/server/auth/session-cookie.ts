/** The session cookie: an opaque id, HttpOnly, SameSite=Lax, Path=/, Secure when the visitor used https. */
import type { CookieSerializeOptions } from '@fastify/cookie';
import { parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './limits.js';

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https', maxAge: maxAgeSeconds };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string, maxAgeSeconds: number): void {
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(request, maxAgeSeconds));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, 0));
}

/**
 * The session id a Cookie header carries, if any (for Fastify requests and fetch Requests alike).
 * The `cookie` package directly: @fastify/cookie's `parse` works only once its plugin has been
 * registered somewhere (it loads `cookie` then), and a renderer without accounts registers none.
 */
export function sessionIdFrom(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return parseCookie(cookieHeader)[SESSION_COOKIE];
}
