/**
 * The render cache at the gateway (Nuxt's swr / isr / cache route rules): an anonymous GET of a
 * page or payload whose rule caches it is answered from memory or the shared store; only misses,
 * bypasses and refreshes reach the renderer. Every page and payload answer says
 * `x-cache: HIT | STALE | MISS | BYPASS`. See docs/decisions/render-cache.md.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '#lib/http-cache/conditional.js';
import { Lru } from '#lib/http-cache/lru.js';
import { SingleFlight } from '#lib/http-cache/single-flight.js';
import type { CacheRule } from '#lib/route-rule-types.js';
import type { CurrentBuild } from '../current-build.js';
import { payloadBuildId } from '../renderer-choice.js';
import { entrySize, isFresh, mayServeStale, pickEncoding, withEncoding, type CacheEntry } from './cache-entry.js';
import { withoutHopByHop } from '../hop-by-hop.js';
import { createRendererClient, fillHeaders, toFillResult, type FillResult, type Rendered } from './cache-fill.js';
import { cacheKey, declaredQuery, readCookie, variantOf } from './cache-key.js';
import { wantsJson } from '#lib/errors.js';
import type { Prerendered } from './prerendered.js';
import { ttlOf, type SharedCacheStore } from './shared-store.js';
import { createHitResponder } from './hit-response.js';
import type { CacheStatus, GatewayRequestState } from '../request-state.js';
import type { AnswerHeaders, Step } from '../step.js';
import { HEALTH_PATH, READY_PATH } from '#lib/url-space/health.js';
import type { RendererStartup } from '../renderer-startup.js';
import { classifyTransportError } from '../transport-errors.js';
import { isImagePath } from '#lib/url-space/images.js';
import { pagePathOfPayload } from '#lib/url-space/payload.js';
import { createPersonalHoles } from '../personal-holes.js';

export type { CacheStatus };

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

/** The page a path belongs to: itself, or the page of a `{route}/_payload.json`. */
export function pageOf(path: string): { page: string; payload: boolean } {
  const page = pagePathOfPayload(path);
  return page === null ? { page: path, payload: false } : { page, payload: true };
}

/** The render cache's place on the gateway's request path (pipeline.ts), and its counts. */
export interface RenderCache {
  /** Answers a cached page or payload: at once from memory, or after a look in the shared store or a fill. */
  step: Step;
  /** `x-cache` on every page and payload answer Fastify sends (a hit written straight says it itself). */
  cacheHeader: AnswerHeaders;
  stats: RenderCacheStats;
}

export function registerRenderCache(app: FastifyInstance, build: CurrentBuild, options: RenderCacheOptions): RenderCache {
  const memory = new Lru<CacheEntry>({ maxEntries: 20_000, maxSize: options.memoryBytes });
  const fills = new SingleFlight<FillResult>();
  const encodings = new SingleFlight<CacheEntry>();
  const now = options.now ?? Date.now;
  const renderer = createRendererClient(options.currentRenderer ?? (() => options.rendererUrl), options.timeoutMs);
  const failing = new Set<string>();
  const hits = createHitResponder(now);
  const personal = createPersonalHoles({ renderer: options.currentRenderer ?? (() => options.rendererUrl), budgetMs: options.personalBudgetMs ?? 50, log: app.log, now });
  const stats: RenderCacheStats = {
    requests: { HIT: 0, STALE: 0, MISS: 0, BYPASS: 0 },
    stores: 0,
    refreshes: 0,
    refreshFailures: 0,
    memoryBytes: () => memory.totalSize,
    idle: () => Promise.all(writes),
  };
  const stopPurge = options.store.onPurge(() => memory.clear());
  // Shared writes finish after the answer; closing waits for them, so nothing writes into a store
  // (or a folder) that is being taken away.
  const writes = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    stopPurge();
    await Promise.all(writes);
    await renderer.close();
    await personal.close();
  });

  /** Resolves once the shared copy is written (or failed: the store's errors never reach a visitor). */
  function remember(entry: CacheEntry, shared: boolean): Promise<unknown> {
    memory.set(entry.key, entry, entrySize(entry));
    // A 404 stays in this gateway's memory only: random missing paths must not fill the shared store.
    if (!shared || entry.status !== 200) return Promise.resolve();
    const write: Promise<unknown> = options.store
      .set(entry, ttlOf(entry, now()))
      .catch(() => undefined)
      .finally(() => writes.delete(write));
    writes.add(write);
    return write;
  }

  async function lookup(key: string, at: number): Promise<CacheEntry | null> {
    const local = memory.get(key);
    if (local && isFresh(local, at)) return local;
    // Stale or missing here: another gateway may have refreshed it already.
    const shared = await options.store.get(key);
    if (shared && (!local || shared.storedAt > local.storedAt)) {
      memory.set(key, shared, entrySize(shared));
      return shared;
    }
    return local ?? null;
  }

  /** The answer, at once; `written` settles when the shared copy is in the store (or failed to be). */
  async function render(
    request: FastifyRequest,
    key: string,
    url: string,
    rule: CacheRule,
  ): Promise<{ result: FillResult; written: Promise<unknown> }> {
    const rendered = await renderer.render(url, fillHeaders(request, rule, options.publicOrigin));
    options.rendererStartup?.answered();
    const result = await toFillResult(key, rendered, rule, now());
    if (result.kind !== 'entry') return { result, written: Promise.resolve() };
    stats.stores++;
    return { result, written: remember(result.entry, true) };
  }

  /**
   * The lock is let go only once the shared copy is written, so the gateway that takes it next
   * finds the entry instead of rendering again; the visitor does not wait for that write.
   */
  async function renderUnderLock(request: FastifyRequest, key: string, url: string, rule: CacheRule): Promise<FillResult> {
    let written: Promise<unknown> = Promise.resolve();
    try {
      const rendered = await render(request, key, url, rule);
      written = rendered.written;
      return rendered.result;
    } finally {
      void written.then(() => options.store.unlock(key));
    }
  }

  /** A miss: one render per key here, and one across gateways while the lock holds. */
  function fill(request: FastifyRequest, key: string, url: string, rule: CacheRule): Promise<FillResult> {
    return fills.run(key, async () => {
      if (!(await options.store.lock(key, options.timeoutMs))) {
        const deadline = Date.now() + options.lockWaitMs;
        while (Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          const entry = await options.store.get(key);
          if (entry) {
            memory.set(key, entry, entrySize(entry));
            return { kind: 'entry', entry };
          }
        }
      }
      return renderUnderLock(request, key, url, rule);
    });
  }

  /** Stale: refresh behind the answer, once per key across gateways; a failure keeps the stale entry. */
  function refresh(request: FastifyRequest, key: string, url: string, rule: CacheRule, log: FastifyBaseLogger): void {
    if (fills.has(key)) return;
    const failed = (error: unknown) => {
      stats.refreshFailures++;
      // One line per failing key until it recovers; nothing is stored, so no error sticks.
      if (!failing.has(key)) log.warn({ err: error, key }, 'cache refresh failed; serving the stale entry');
      failing.add(key);
    };
    void (async () => {
      if (!(await options.store.lock(key, options.timeoutMs))) return;
      stats.refreshes++;
      // Joining a render already under way: that render lets its own lock go; this one is ours to drop.
      const joined = fills.has(key);
      const result = await fills.run(key, () => renderUnderLock(request, key, url, rule));
      if (joined) void options.store.unlock(key);
      if (result.kind === 'uncacheable') throw new Error(`the renderer answered ${result.reason}`);
      failing.delete(key);
    })().catch(failed);
  }

  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    state: GatewayRequestState,
    cached: CacheEntry,
    status: CacheStatus,
  ): Promise<true> {
    state.cacheStatus = status;
    if (status !== 'MISS' && status !== 'BYPASS' && hits.serve(request, reply, cached, status, state.routeRules)) {
      stats.requests[status]++; // cacheHeader below, which counts, does not run for it
      return true;
    }
    const age = Math.max(0, Math.floor((now() - cached.storedAt) / 1000));
    reply.headers({ ...cached.headers, etag: cached.etag, age: String(age), vary: varyOf(cached) });
    if (etagMatches(request.headers['if-none-match'], cached.etag)) {
      reply.code(304).send();
      return true;
    }
    // A miss answers like an uncached page (compressed on the fly, cheaply); the best-level
    // compression is made once, for the first hit that asks for it.
    const wanted = pickEncoding(request.headers['accept-encoding']);
    const encoding = status === 'MISS' && !cached.bodies[wanted] ? 'identity' : wanted;
    let entry = cached;
    if (encoding !== 'identity' && !cached.bodies[encoding]) {
      entry = await encodings.run(`${encoding}:${cached.key}`, () => withEncoding(cached, encoding));
      if (!reply.hasHeader('x-prerendered')) void remember(entry, true); // the visitor need not wait for the shared copy
    }
    const body = encoding === 'identity' ? entry.bodies.identity : entry.bodies[encoding]!;
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

  /** The rule and key of a request the cache may answer, or null (a bypass). */
  function decide(
    request: FastifyRequest,
    state: GatewayRequestState,
    path: string,
    search: string,
  ): { rule: CacheRule; key: string; url: string } | null {
    const { page, payload } = pageOf(path);
    const rule = (payload ? build.matcher().match(page) : state.routeRules)?.cache;
    const buildId = build.info()?.id;
    if (!rule || !buildId) return null;
    // A tab on an older build whose renderers still run gets its own build's data (not cached here).
    const named = payload ? payloadBuildId(`${path}?${search}`) : null;
    if (named && named !== buildId && options.servesBuild?.(named)) return null;
    // Only what the route declares it reads (a payload's `?{buildId}` never is: the key has the
    // build already); no per-path allowance, so no client can use one up.
    const query = declaredQuery(search, rule.query);
    const json = wantsJson({ url: path, headers: request.headers });
    const key = cacheKey(buildId, path, query, variantOf(request.headers, rule.varies, options.publicOrigin, json)).key;
    return { rule, key, url: query ? `${path}?${query}` : path };
  }

  /** A GET or HEAD of a page: the only requests the cache answers. */
  const isPageRequest = (request: FastifyRequest) =>
    (request.method === 'GET' || request.method === 'HEAD') && isPagePath(request.url, options.assetsPrefix);
  /** Signed-in visitors (or anyone sending credentials) always get their own render; the build names the site's session cookie. */
  const hasCredentials = (request: FastifyRequest) => {
    if (request.headers.authorization) return true;
    const cookie = build.sessionCookie();
    return cookie !== undefined && readCookie(request.headers.cookie, cookie) !== undefined;
  };

  /**
   * A fresh entry already in memory (or a prerendered page already loaded) is answered here, with
   * no promise and no wait: `answered` below does the rest. docs/decisions/performance.md.
   */
  function answeredAtOnce(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState): boolean {
    if (hasCredentials(request)) return false;
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    const built = options.prerendered.peek(path);
    let entry = built;
    if (!entry) {
      const decision = decide(request, state, path, query === -1 ? '' : request.url.slice(query + 1));
      entry = decision ? memory.get(decision.key) : undefined;
      if (!entry || !isFresh(entry, now())) return false;
    }
    if (built) reply.header('x-prerendered', 'true');
    state.cacheStatus = 'HIT';
    if (!hits.serve(request, reply, entry, 'HIT', state.routeRules)) return false;
    stats.requests.HIT++;
    return true;
  }

  /** A signed-in visitor: the shared entry with their parts (personal-holes.ts) if the page has them, else a render of their own. */
  async function answeredSignedIn(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState): Promise<boolean> {
    const [path = '/', search = ''] = request.url.split(/\?(.*)/s);
    const decision = decide(request, state, path, search);
    const at = now();
    let entry = (await options.prerendered.get(path, pageOf(path).page)) ?? (decision ? await lookup(decision.key, at) : null);
    // A miss is filled as for anyone (an anonymous render), then stitched.
    if (!entry && decision) entry = await fill(request, decision.key, decision.url, decision.rule).then((r) => (r.kind === 'entry' ? r.entry : null), () => null);
    if (!entry || !mayServeStale(entry, at) || entry.status !== 200 || !personal.serves(entry)) return false;
    const status = isFresh(entry, at) ? 'HIT' : 'STALE';
    if (status === 'STALE' && decision) refresh(request, decision.key, decision.url, decision.rule, request.log);
    state.cacheStatus = status;
    if (!personal.serve(request, reply, entry, status, state.routeRules)) return send(request, reply, state, entry, status);
    stats.requests[status]++;
    return true;
  }

  /** Everything but a fresh hit in memory: the prerendered page on disk, the shared store, a fill. Resolves true when it answered. */
  async function answered(request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState): Promise<boolean> {
    state.cacheStatus = 'BYPASS';
    if (hasCredentials(request)) return answeredSignedIn(request, reply, state);
    const [path = '/', search = ''] = request.url.split(/\?(.*)/s);
    const built = await options.prerendered.get(path, pageOf(path).page);
    if (built) return send(request, reply.header('x-prerendered', 'true'), state, built, 'HIT');
    const decision = decide(request, state, path, search);
    if (!decision) return false;
    const { rule, key, url } = decision;
    const at = now();
    const entry = await lookup(key, at);
    if (entry && isFresh(entry, at)) return send(request, reply, state, entry, 'HIT');
    if (entry && mayServeStale(entry, at)) {
      refresh(request, key, url, rule, request.log);
      return send(request, reply, state, entry, 'STALE');
    }
    try {
      const result = await fill(request, key, url, rule);
      if (result.kind === 'entry') return send(request, reply, state, result.entry, 'MISS');
      // Not storable (a Set-Cookie, an error…): the leader sends it once; followers render their own.
      if (result.claim()) return sendRendered(request, reply, state, result.rendered);
    } catch (error) {
      // A renderer that is not there (starting, or gone): the proxy answers for it, one line, no stack.
      const transport = classifyTransportError(error);
      if (transport.unsent) request.log.info({ key, codes: transport.codes }, 'cache fill: renderer unreachable; proxying');
      else request.log.warn({ err: error, key }, 'cache fill failed; proxying');
    }
    state.cacheStatus = 'MISS';
    return false;
  }

  // A fresh entry already in memory is answered with no promise made; the rest waits.
  const step: Step = (request, reply, state) =>
    isPageRequest(request) && (answeredAtOnce(request, reply, state) || answered(request, reply, state));

  const cacheHeader: AnswerHeaders = (_request, reply, state) => {
    if (!state.cacheStatus) return;
    reply.header('x-cache', state.cacheStatus);
    stats.requests[state.cacheStatus]++;
  };
  return { step, cacheHeader, stats };
}

function varyOf(entry: CacheEntry): string {
  const vary = entry.headers.vary;
  return vary ? `${vary}, accept-encoding` : 'accept-encoding';
}

/** Pages and payloads: not assets, the API, images or the gateway's own endpoints. */
export function isPagePath(url: string, assetsPrefix: string): boolean {
  return !(
    url.startsWith(assetsPrefix) ||
    url.startsWith('/api/') ||
    url === '/api' ||
    isImagePath(url) ||
    url.startsWith(HEALTH_PATH) ||
    url.startsWith(READY_PATH)
  );
}
