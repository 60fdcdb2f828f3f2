/**
 * The render cache's responder: how an entry becomes an answer. A hit goes straight to the socket
 * when it can (hit-response.ts); otherwise, and for a miss, through Fastify with the entry's
 * headers, a 304 for a matching ETag, and the body in the encoding asked for (made once per entry
 * and kept, for the first hit that asks for it). An answer that could not be stored is sent once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '@tern/shared/http-cache/conditional';
import { SingleFlight } from '@tern/shared/http-cache/single-flight';
import { withoutHopByHop } from '../hop-by-hop.js';
import type { CacheStatus, GatewayRequestState } from '../request-state.js';
import { ageOf, bodyIn, pickEncoding, withEncoding, type CacheEntry, type Encoding } from './cache-entry.js';
import type { Rendered } from './cache-fill.js';
import type { CacheTiers } from './cache-tiers.js';
import { createHitResponder } from './hit-response.js';

export interface CacheResponder {
  /**
   * A hit written straight to the socket, with no promise: false when it cannot be (the
   * encoding is not made yet, a 304, the gateway closing), leaving it to `send`.
   */
  sendAtOnce(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState, entry: CacheEntry, status: 'HIT' | 'STALE'): boolean;
  /** Any entry as an answer; resolves once sent. */
  send(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState, entry: CacheEntry, status: CacheStatus): Promise<true>;
  /** A render that could not be stored, sent whole to the one request that claimed it. */
  sendRendered(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState, rendered: Rendered): true;
}

/** `counted` is told of every answer written straight (Fastify's onSend, which counts the others, does not run for them). */
export function createCacheResponder(tiers: CacheTiers, now: () => number, counted: (status: CacheStatus) => void): CacheResponder {
  const hits = createHitResponder(now);
  const encodings = new SingleFlight<CacheEntry>();

  const sendAtOnce: CacheResponder['sendAtOnce'] = (request, reply, state, entry, status) => {
    state.cacheStatus = status;
    if (!hits.serve(request, reply, entry, status, state.routeRules)) return false;
    counted(status);
    return true;
  };

  /** The entry in the encoding the request takes, made and kept when missing. */
  async function encoded(reply: FastifyReply, cached: CacheEntry, status: CacheStatus, wanted: Encoding) {
    // A miss answers like an uncached page (compressed on the fly, cheaply); the best-level
    // compression is made once, for the first hit that asks for it.
    const encoding = status === 'MISS' && !cached.bodies[wanted] ? 'identity' : wanted;
    if (encoding === 'identity' || cached.bodies[encoding]) return { entry: cached, encoding };
    const entry = await encodings.run(`${encoding}:${cached.key}`, () => withEncoding(cached, encoding));
    if (!reply.hasHeader('x-prerendered')) void tiers.remember(entry, true); // the visitor need not wait for the shared copy
    return { entry, encoding };
  }

  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    state: GatewayRequestState,
    cached: CacheEntry,
    status: CacheStatus,
  ): Promise<true> {
    if ((status === 'HIT' || status === 'STALE') && sendAtOnce(request, reply, state, cached, status)) return true;
    state.cacheStatus = status;
    reply.headers({ ...cached.headers, etag: cached.etag, age: String(ageOf(cached, now())), vary: varyOf(cached) });
    if (etagMatches(request.headers['if-none-match'], cached.etag)) {
      reply.code(304).send();
      return true;
    }
    const { entry, encoding } = await encoded(reply, cached, status, pickEncoding(request.headers['accept-encoding']));
    const body = bodyIn(entry, encoding)!;
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    reply.code(entry.status).header('content-length', String(body.length));
    reply.send(request.method === 'HEAD' ? undefined : body);
    return true;
  }

  function sendRendered(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState, rendered: Rendered): true {
    state.cacheStatus = 'MISS';
    // The body is sent whole: its length is recomputed, and no hop-by-hop header passes.
    for (const [name, value] of Object.entries(withoutHopByHop(rendered.headers))) {
      if (value !== undefined && name !== 'content-length') reply.header(name, value);
    }
    reply.code(rendered.status).send(request.method === 'HEAD' ? undefined : rendered.body);
    return true;
  }

  return { sendAtOnce, send, sendRendered };
}

function varyOf(entry: CacheEntry): string {
  const vary = entry.headers.vary;
  return vary ? `${vary}, accept-encoding` : 'accept-encoding';
}
