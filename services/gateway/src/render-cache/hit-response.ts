/**
 * A cache hit answered at the speed of bytes: from the render cache's step of the request path
 * (pipeline.ts), straight to Node's response with one precomputed header list per entry, encoding
 * and status and the body Buffer as it is stored. Fastify's send path and its onSend hooks (the
 * pipeline's security headers, route rule headers and x-cache, then compression and the closing
 * check) cost a hit more than writing the page; what they add is added here once per entry. The
 * onResponse hooks still run (`finish`): the access line, metrics and the span are the same as for
 * any answer. docs/decisions/performance.md.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '@tern/shared/http-cache/conditional';
import type { MatchedRouteRules } from '@tern/shared/route-rules/route-rules';
import { ruleHeaders } from '../route-rules.js';
import { SECURITY_HEADERS } from '../security-headers.js';
import { headersPerEntry, withRequestHeaders } from './answer-headers.js';
import { ageOf, bodyIn, pickEncoding, type CacheEntry, type Encoding } from './cache-entry.js';

type HitStatus = 'HIT' | 'STALE';

/** The headers every answer of this entry in this encoding carries, as Node's flat [name, value, ...] list. */
function headersOf(entry: CacheEntry, encoding: Encoding, status: HitStatus, body: Buffer, extra: [string, string][] = []): string[] {
  const headers: Record<string, string> = { ...entry.headers };
  headers.vary = entry.headers.vary ? `${entry.headers.vary}, accept-encoding` : 'accept-encoding';
  headers.etag = entry.etag;
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  headers['content-length'] = String(body.length);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers[name] ??= value;
  headers['x-cache'] = status;
  for (const [name, value] of extra) headers[name] = value;
  return Object.entries(headers).flat();
}

export interface HitResponder {
  /**
   * Answers `entry` if it can be sent as stored (that encoding made, no 304, the gateway not
   * closing) and returns true; false leaves the answer to Fastify's usual path. `rules` are the
   * request's route rules (request-state.ts), whose headers the answer carries.
   */
  serve(request: FastifyRequest, reply: FastifyReply, entry: CacheEntry, status: HitStatus, rules: MatchedRouteRules | null): boolean;
}

export function createHitResponder(now: () => number = Date.now): HitResponder {
  const prepared = headersPerEntry((entry, variant) => {
    const [encoding, status] = variant.split(' ') as [Encoding, HitStatus];
    return headersOf(entry, encoding, status, bodyIn(entry, encoding)!);
  });

  return {
    serve(request, reply, entry, status, rules) {
      if (request.server.closing || etagMatches(request.headers['if-none-match'], entry.etag)) return false;
      const encoding = pickEncoding(request.headers['accept-encoding']);
      const body = bodyIn(entry, encoding);
      if (!body) return false;
      // Route rule headers (rare) replace the entry's own of the same name, as they do on the way out of the pipeline.
      const extra = rules ? ruleHeaders(rules, true, entry.status) : [];
      const shared = extra.length > 0 ? headersOf(entry, encoding, status, body, extra) : prepared(entry, `${encoding} ${status}`);
      reply.hijack();
      reply.raw.writeHead(entry.status, withRequestHeaders(shared, request, reply, ageOf(entry, now())));
      reply.raw.end(request.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
