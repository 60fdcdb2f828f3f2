/**
 * The header lists of answers written straight to Node's response (hit-response.ts, and a signed-in
 * visitor's stitched answer in personal-holes.ts). What every answer of an entry shares is made once
 * per entry and variant, as Node's flat [name, value, ...] list; each answer appends what varies per
 * request to a copy. Building a header object per answer (spreading the entry's and the security
 * headers) cost a signed-in hit 13 % of the gateway's busy CPU.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { visitorProto } from '../forwarded.js';
import { HSTS } from '../security-headers.js';
import type { CacheEntry } from './cache-entry.js';

/** `make`'s list for an entry and a variant (what else its headers depend on), made once and kept with the entry. */
export function headersPerEntry(
  make: (entry: CacheEntry, variant: string) => string[],
): (entry: CacheEntry, variant: string) => readonly string[] {
  const made = new WeakMap<CacheEntry, Map<string, string[]>>();
  return (entry, variant) => {
    let byVariant = made.get(entry);
    if (!byVariant) made.set(entry, (byVariant = new Map()));
    let headers = byVariant.get(variant);
    if (!headers) byVariant.set(variant, (headers = make(entry, variant)));
    return headers;
  };
}

/** A copy of `shared` with what varies per request: what earlier hooks set on this reply (the request id), the age, HSTS over HTTPS. */
export function withRequestHeaders(shared: readonly string[], request: FastifyRequest, reply: FastifyReply, age: number): string[] {
  const headers = shared.slice();
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers.push(name, String(value));
  headers.push('age', String(age));
  if (visitorProto(request) === 'https') headers.push('strict-transport-security', HSTS);
  return headers;
}
