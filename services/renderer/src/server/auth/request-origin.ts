/**
 * The one place the renderer reads forwarding headers. The gateway is its only caller and always
 * writes X-Forwarded-For/Proto/Host itself (dropping what a client claimed unless TRUST_PROXY),
 * so here they are the visitor's address, scheme and host.
 */
import type { FastifyRequest } from 'fastify';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

function firstOf(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

/** The entries before the last one were written by whoever called the gateway: not to be trusted. */
export function clientAddress(request: FastifyRequest): string {
  const header = request.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.at(-1) : header;
  return value?.split(',').at(-1)?.trim() || request.ip;
}

export function cameOverHttps(request: FastifyRequest): boolean {
  return firstOf(request.headers['x-forwarded-proto'])?.toLowerCase() === 'https' || request.protocol === 'https';
}

/** `https://host` of the request as the visitor sees it; a malformed host falls back to localhost. */
export function requestOrigin(request: FastifyRequest): string {
  const host = firstOf(request.headers['x-forwarded-host']) ?? firstOf(request.headers.host);
  return `${cameOverHttps(request) ? 'https' : 'http'}://${host && HOST.test(host) ? host : 'localhost'}`;
}
