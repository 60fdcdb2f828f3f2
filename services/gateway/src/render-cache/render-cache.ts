/**
 * The render cache at the gateway (Nuxt's swr / isr / cache route rules): an anonymous GET of a
 * page or payload whose rule caches it is answered from memory or the shared store; only misses,
 * bypasses and refreshes reach the renderer. Every page and payload answer says
 * `x-cache: HIT | STALE | MISS | BYPASS`. See docs/decisions/render-cache.md. Its parts:
 *
 *   cache-policy.ts     which requests it answers, and their key (what the build's pages vary by)
 *   cache-tiers.ts      memory in front of the shared store (shared-store.ts: Redis or files)
 *   cache-fills.ts      one render per key across gateways; stale entries refreshed behind the answer
 *   cache-responder.ts  an entry as an answer: straight to the socket (hit-response.ts) or through Fastify
 *
 * This file joins them into the cache's two phases of the request path (pipeline.ts): the step
 * that answers, and the `x-cache` header on the way out.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentBuild } from '../current-build.js';
import type { CacheStatus, GatewayRequestState } from '../request-state.js';
import type { RendererStartup } from '../renderer-startup.js';
import type { AnswerHeaders, Step } from '../step.js';
import { classifyTransportError } from '../transport-errors.js';
import { isFresh, mayServeStale } from './cache-entry.js';
import { createCacheFills, type CacheFills } from './cache-fills.js';
import { createCachePolicy, pageOf, type CacheDecision, type CachePolicy } from './cache-policy.js';
import { createCacheResponder, type CacheResponder } from './cache-responder.js';
import { createCacheTiers, type CacheTiers } from './cache-tiers.js';
import type { Prerendered } from './prerendered.js';
import type { SharedCacheStore } from './shared-store.js';
import { createPersonalHoles, type PersonalHoles } from '../personal-holes.js';
import { changesState, createPartsMemory, VERSION_COOKIE, versionValue } from '../personal-parts-memory.js';
import { visitorProto } from '../forwarded.js';

export type { CacheStatus };
export { isPagePath, pageOf } from './cache-policy.js';

export interface RenderCacheOptions {
  rendererUrl: string;
  /** The renderer of each fill (renderer-choice.ts); rendererUrl when absent. */
  currentRenderer?: () => string;
  /** True when a renderer of that build is announced: its payloads go there, past the cache. */
  servesBuild?: (buildId: string) => boolean;
  timeoutMs: number;
  assetsPrefix: string;
  store: SharedCacheStore;
  memoryBytes: number;
  /**
   * The site's origin (PUBLIC_ORIGIN): in every key, and the origin every cached render is asked
   * for, whatever Host the visitor sent; a foreign Host gets the site's entry, never its own.
   */
  publicOrigin: string;
  /** The clock of freshness and ages (tests move it instead of sleeping). */
  now?: () => number;
  /** How long a gateway waits for another gateway's render of the same page. */
  lockWaitMs: number;
  /** Pages rendered at build time. */
  prerendered: Prerendered;
  /** Told of every render; until the first, a refused renderer is one still starting. */
  rendererStartup?: RendererStartup;
  /** How long a signed-in visitor's personal parts may take (personal-holes.ts); 50 ms when absent. */
  personalBudgetMs?: number;
  /** How long a visitor's parts are kept between their pages (personal-parts-memory.ts); 0 (none) when absent. */
  personalTtlMs?: number;
  /** The most bytes of visitors' parts kept; 16 MB when absent. */
  personalMemoryBytes?: number;
}

/** Counts since start, by outcome; metrics read them. */
export interface RenderCacheStats {
  requests: Record<CacheStatus, number>;
  stores: number;
  refreshes: number;
  refreshFailures: number;
  memoryBytes: () => number;
  /** Settles once the shared writes under way have (tests wait on it instead of sleeping). */
  idle: () => Promise<unknown>;
}

/** The render cache's place on the gateway's request path (pipeline.ts), and its counts. */
export interface RenderCache {
  /** Answers a cached page or payload: at once from memory, or after a look in the shared store or a fill. */
  step: Step;
  /** `x-cache` on every page and payload answer Fastify sends (a hit written straight says it itself). */
  cacheHeader: AnswerHeaders;
  /** On an answer to a signed-in visitor's change (an unsafe request): their kept parts go, and a new version cookie. */
  personalChange: AnswerHeaders;
  stats: RenderCacheStats;
}

interface Parts {
  policy: CachePolicy;
  tiers: CacheTiers;
  fills: CacheFills;
  responder: CacheResponder;
  prerendered: Prerendered;
  personal: PersonalHoles;
  /** Counts an answer written straight to the socket (Fastify's onSend does not run for it). */
  counted: (status: CacheStatus) => void;
  now: () => number;
}

export function registerRenderCache(app: FastifyInstance, build: CurrentBuild, options: RenderCacheOptions): RenderCache {
  const now = options.now ?? Date.now;
  const requests: Record<CacheStatus, number> = { HIT: 0, STALE: 0, MISS: 0, BYPASS: 0 };
  const tiers = createCacheTiers(options.store, options.memoryBytes, now);
  const fills = createCacheFills(tiers, {
    renderer: options.currentRenderer ?? (() => options.rendererUrl),
    timeoutMs: options.timeoutMs,
    lockWaitMs: options.lockWaitMs,
    publicOrigin: options.publicOrigin,
    now,
    rendererStartup: options.rendererStartup,
  });
  const memory = createPartsMemory({ ttlMs: options.personalTtlMs ?? 0, maxBytes: options.personalMemoryBytes ?? 16 * 1024 * 1024, now });
  const policy = createCachePolicy(build, { publicOrigin: options.publicOrigin, servesBuild: options.servesBuild });
  const parts: Parts = {
    policy,
    tiers,
    fills,
    responder: createCacheResponder(tiers, now, (status) => requests[status]++),
    prerendered: options.prerendered,
    personal: createPersonalHoles({
      renderer: options.currentRenderer ?? (() => options.rendererUrl),
      budgetMs: options.personalBudgetMs ?? 50,
      log: app.log,
      memory,
      sessionOf: policy.sessionOf,
      now,
    }),
    counted: (status) => requests[status]++,
    now,
  };
  app.addHook('onClose', async () => {
    await tiers.close();
    await fills.close();
    await parts.personal.close();
  });
  const stats: RenderCacheStats = {
    requests,
    get stores() {
      return fills.counts.stores;
    },
    get refreshes() {
      return fills.counts.refreshes;
    },
    get refreshFailures() {
      return fills.counts.refreshFailures;
    },
    memoryBytes: tiers.memoryBytes,
    idle: tiers.idle,
  };
  // A fresh entry already in memory is answered with no promise made; the rest waits.
  const step: Step = (request, reply, state) => {
    if (!parts.policy.isPageRequest(request, state)) return false;
    if (parts.policy.hasCredentials(request)) {
      state.cacheStatus = 'BYPASS';
      const decision = parts.policy.decide(request, state);
      return answeredSignedInAtOnce(parts, request, reply, state, decision) || answeredSignedIn(parts, request, reply, state, decision);
    }
    return answeredAtOnce(parts, request, reply, state) || answered(parts, request, reply, state);
  };
  const cacheHeader: AnswerHeaders = (_request, reply, state) => {
    if (!state.cacheStatus) return;
    reply.header('x-cache', state.cacheStatus);
    requests[state.cacheStatus]++;
  };
  const personalChange: AnswerHeaders = (request, reply) => {
    if (!changesState(request.method)) return;
    const session = policy.sessionOf(request);
    if (session === undefined) return;
    memory.changed(session);
    const secure = visitorProto(request) === 'https' ? '; Secure' : '';
    reply.header('set-cookie', `${VERSION_COOKIE}=${versionValue(now())}; Path=/; HttpOnly; SameSite=Lax${secure}`);
  };
  return { step, cacheHeader, personalChange, stats };
}

/**
 * A fresh entry already in memory (or a prerendered page already loaded) is answered here, with
 * no promise and no wait: `answered` below does the rest. docs/decisions/performance.md.
 */
function answeredAtOnce(
  { policy, tiers, responder, prerendered, now }: Parts,
  request: FastifyRequest,
  reply: FastifyReply,
  state: GatewayRequestState,
): boolean {
  const built = prerendered.peek(state.path);
  let entry = built;
  if (!entry) {
    const decision = policy.decide(request, state);
    entry = decision ? tiers.freshInMemory(decision.key, now()) : undefined;
    if (!entry) return false;
  }
  if (built) reply.header('x-prerendered', 'true');
  return responder.sendAtOnce(request, reply, state, entry, 'HIT');
}

/** Everything but a fresh hit in memory: the prerendered page on disk, the shared store, a fill. Resolves true when it answered. */
async function answered(parts: Parts, request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState): Promise<boolean> {
  const { policy, tiers, fills, responder, now } = parts;
  state.cacheStatus = 'BYPASS';
  const built = await parts.prerendered.get(state.path, pageOf(state.path).page);
  if (built) return responder.send(request, reply.header('x-prerendered', 'true'), state, built, 'HIT');
  const decision = policy.decide(request, state);
  if (!decision) return false;
  const at = now();
  const entry = await tiers.lookup(decision.key, at);
  if (entry && isFresh(entry, at)) return responder.send(request, reply, state, entry, 'HIT');
  if (entry && mayServeStale(entry, at)) {
    fills.refresh(request, decision, request.log);
    return responder.send(request, reply, state, entry, 'STALE');
  }
  try {
    const result = await fills.fill(request, decision);
    if (result.kind === 'entry') return responder.send(request, reply, state, result.entry, 'MISS');
    // Not storable (a Set-Cookie, an error…): the leader sends it once; followers render their own.
    if (result.claim()) return responder.sendRendered(request, reply, state, result.rendered);
  } catch (error) {
    // A renderer that is not there (starting, or gone): the proxy answers for it, one line, no stack.
    const transport = classifyTransportError(error);
    if (transport.unsent) request.log.info({ key: decision.key, codes: transport.codes }, 'cache fill: renderer unreachable; proxying');
    else request.log.warn({ err: error, key: decision.key }, 'cache fill failed; proxying');
  }
  state.cacheStatus = 'MISS';
  return false;
}

/**
 * A signed-in visitor whose page is fresh in memory: answered with no promise made when their parts
 * are kept (personal-parts-memory.ts), or with only the wait for their parts.
 */
function answeredSignedInAtOnce(
  { tiers, prerendered, personal, now, counted }: Parts,
  request: FastifyRequest,
  reply: FastifyReply,
  state: GatewayRequestState,
  decision: CacheDecision | null,
): boolean {
  const entry = prerendered.peek(state.path) ?? (decision ? tiers.freshInMemory(decision.key, now()) : undefined);
  if (!entry || entry.status !== 200 || !personal.serves(entry)) return false;
  state.cacheStatus = 'HIT';
  if (!personal.serve(request, reply, entry, 'HIT', state.routeRules)) return false;
  counted('HIT');
  return true;
}

/**
 * A signed-in visitor: the shared entry with their parts spliced in (personal-holes.ts) when the
 * page has them; otherwise false, and the renderer draws their page.
 */
async function answeredSignedIn(
  parts: Parts,
  request: FastifyRequest,
  reply: FastifyReply,
  state: GatewayRequestState,
  decision: CacheDecision | null,
): Promise<boolean> {
  const { tiers, fills, responder, personal, now } = parts;
  // A page drawn for each visitor (no parts) is known from the copy in memory, fresh or not: no
  // look in the shared store, no fill, for a request that will be proxied anyway.
  const known = decision ? tiers.inMemory(decision.key) : undefined;
  if (known && !personal.serves(known)) return false;
  const at = now();
  let entry =
    (await parts.prerendered.get(state.path, pageOf(state.path).page)) ?? (decision ? await tiers.lookup(decision.key, at) : null);
  // A miss is filled as for anyone (an anonymous render), then stitched.
  if (!entry && decision)
    entry = await fills.fill(request, decision).then(
      (r) => (r.kind === 'entry' ? r.entry : null),
      () => null,
    );
  if (!entry || !mayServeStale(entry, at) || entry.status !== 200 || !personal.serves(entry)) return false;
  const status = isFresh(entry, at) ? 'HIT' : 'STALE';
  if (status === 'STALE' && decision) fills.refresh(request, decision, request.log);
  state.cacheStatus = status;
  if (!personal.serve(request, reply, entry, status, state.routeRules)) return responder.send(request, reply, state, entry, status);
  parts.counted(status);
  return true;
}
