/**
 * The request as the visitor made it. The renderer's only caller is the gateway, which writes
 * X-Forwarded-For/Proto/Host itself (services/gateway/src/forwarded.ts), so the renderer's Fastify
 * believes them: `request.ip`, `request.protocol` and `request.host` are the visitor's.
 */
import type { FastifyRequest } from 'fastify';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * The renderer's `trustProxy`: the gateway and the chain it sends. That chain holds only what the
 * gateway trusted (the visitor first, then the proxies TRUST_PROXY names), so its first entry is `request.ip`.
 */
export function trustTheGateway(): boolean {
  return true;
}

/** `https://host` of the request as the visitor sees it; a malformed host falls back to localhost. */
export function requestOrigin(request: FastifyRequest): string {
  const host = request.host;
  return `${request.protocol === 'https' ? 'https' : 'http'}://${HOST.test(host) ? host : 'localhost'}`;
}
