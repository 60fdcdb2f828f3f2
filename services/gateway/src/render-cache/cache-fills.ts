/**
 * The render cache's fill coordination: a miss is rendered once per key in this gateway (single
 * flight) and once across gateways while the shared store's lock holds; a gateway that finds the
 * lock taken waits briefly for the other's entry. A stale entry is refreshed behind its answer,
 * once per key across gateways; a failed refresh keeps the stale entry.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { SingleFlight } from '@tern/shared/http-cache/single-flight';
import type { RendererStartup } from '../renderer-startup.js';
import { createRendererClient, fillHeaders, toFillResult, type FillResult } from './cache-fill.js';
import type { CacheDecision } from './cache-policy.js';
import type { CacheTiers } from './cache-tiers.js';

/** Counts since start; the cache's stats read them. */
export interface FillCounts {
  stores: number;
  refreshes: number;
  refreshFailures: number;
}

export interface CacheFills {
  /** A miss: the entry (or an answer for one request) once rendered here or by another gateway. */
  fill(request: FastifyRequest, decision: CacheDecision): Promise<FillResult>;
  /** Stale: refreshes behind the answer, unless a render of the key is under way. */
  refresh(request: FastifyRequest, decision: CacheDecision, log: FastifyBaseLogger): void;
  readonly counts: FillCounts;
  close(): Promise<void>;
}

export interface CacheFillOptions {
  /** The renderer of each fill (renderer-choice.ts). */
  renderer: () => string;
  timeoutMs: number;
  /** How long a gateway waits for another gateway's render of the same page. */
  lockWaitMs: number;
  /** The origin every cached render is asked for (cache-fill.ts fillHeaders). */
  publicOrigin: string;
  now: () => number;
  /** Told of every render; until the first, a refused renderer is one still starting. */
  rendererStartup?: RendererStartup | undefined;
}

export function createCacheFills(tiers: CacheTiers, options: CacheFillOptions): CacheFills {
  const flights = new SingleFlight<FillResult>();
  const renderer = createRendererClient(options.renderer, options.timeoutMs);
  const counts: FillCounts = { stores: 0, refreshes: 0, refreshFailures: 0 };
  const failing = new Set<string>();
  const store = tiers.shared;

  /** The answer, at once; `written` settles when the shared copy is in the store (or failed to be). */
  async function render(request: FastifyRequest, decision: CacheDecision): Promise<{ result: FillResult; written: Promise<unknown> }> {
    const rendered = await renderer.render(decision.url, fillHeaders(request, decision, options.publicOrigin));
    options.rendererStartup?.answered();
    const result = await toFillResult(decision.key, rendered, decision.rule, options.now());
    if (result.kind !== 'entry') return { result, written: Promise.resolve() };
    counts.stores++;
    return { result, written: tiers.remember(result.entry, true) };
  }

  /**
   * The lock is let go only once the shared copy is written, so the gateway that takes it next
   * finds the entry instead of rendering again; the visitor does not wait for that write.
   */
  async function renderUnderLock(request: FastifyRequest, decision: CacheDecision): Promise<FillResult> {
    let written: Promise<unknown> = Promise.resolve();
    try {
      const rendered = await render(request, decision);
      written = rendered.written;
      return rendered.result;
    } finally {
      void written.then(() => store.unlock(decision.key));
    }
  }

  /** Another gateway holds the lock: its entry, if it arrives within lockWaitMs. */
  async function awaitOther(key: string): Promise<FillResult | null> {
    const deadline = Date.now() + options.lockWaitMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const entry = await tiers.fromShared(key);
      if (entry) return { kind: 'entry', entry };
    }
    return null;
  }

  function fill(request: FastifyRequest, decision: CacheDecision): Promise<FillResult> {
    return flights.run(decision.key, async () => {
      if (!(await store.lock(decision.key, options.timeoutMs))) {
        const theirs = await awaitOther(decision.key);
        if (theirs) return theirs;
      }
      return renderUnderLock(request, decision);
    });
  }

  function refresh(request: FastifyRequest, decision: CacheDecision, log: FastifyBaseLogger): void {
    const { key } = decision;
    if (flights.has(key)) return;
    const failed = (error: unknown) => {
      counts.refreshFailures++;
      // One line per failing key until it recovers; nothing is stored, so no error sticks.
      if (!failing.has(key)) log.warn({ err: error, key }, 'cache refresh failed; serving the stale entry');
      failing.add(key);
    };
    void (async () => {
      if (!(await store.lock(key, options.timeoutMs))) return;
      counts.refreshes++;
      // Joining a render already under way: that render lets its own lock go; this one is ours to drop.
      const joined = flights.has(key);
      const result = await flights.run(key, () => renderUnderLock(request, decision));
      if (joined) void store.unlock(key);
      if (result.kind === 'uncacheable') throw new Error(`the renderer answered ${result.reason}`);
      failing.delete(key);
    })().catch(failed);
  }

  return { fill, refresh, counts, close: () => renderer.close() };
}
