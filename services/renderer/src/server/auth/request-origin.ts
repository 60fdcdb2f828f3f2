/**
 * Where a request came from, as the gateway forwarded it: the visitor's address (the last
 * X-Forwarded-For entry, the one the gateway added), and whether it came over https.
 */
import type { FastifyRequest } from 'fastify';

function firstOf(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim().toLowerCase() ?? '';
}

/** The entries before the last one were written by whoever called the gateway: not to be trusted. */
export function clientAddress(request: FastifyRequest): string {
  const header = request.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.at(-1) : header;
  return value?.split(',').at(-1)?.trim() || request.ip;
}

export function cameOverHttps(request: FastifyRequest): boolean {
  return firstOf(request.headers['x-forwarded-proto']) === 'https' || request.protocol === 'https';
}
