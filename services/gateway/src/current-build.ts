/**
 * The build the gateway applies: followed from the build store (change events plus a short
 * poll), kept in memory so the gateway keeps serving its last build while the store is away.
 * The same read brings the renderers announced per build (docs/decisions/skew-protection.md).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  BUILDS_KEPT,
  isBuildId,
  validPageVaries,
  validSessionCookie,
  type BuildInfo,
  type BuildMeta,
  type BuildStore,
  type PageVary,
  type RendererEntry,
} from '@tern/shared/build-store';
import { createRouteRulesMatcher, type RouteRulesMatcher } from '@tern/shared/route-rules/route-rules';
import { rememberMatches } from './remembered-rules.js';

export interface CurrentBuild {
  info(): BuildInfo | null;
  matcher(): RouteRulesMatcher;
  /** The current build's session cookie (BuildMeta.sessionCookie); undefined for a site without sessions. */
  sessionCookie(): string | undefined;
  /** What the current build's pages vary by (BuildMeta.pageVaries): part of every cache key; empty when it declares nothing. */
  pageVaries(): readonly PageVary[];
  /** The meta of any kept build; `undefined` when the store cannot answer and it is not cached. */
  meta(id: string): Promise<BuildMeta | null | undefined>;
  /** The announced renderers of a build (their own addresses); empty when none is known. */
  renderersOf(id: string): readonly string[];
  /** Every announced renderer, of any build. */
  allRenderers(): readonly string[];
  /** Re-reads the current build now; resolves false when the store did not answer. */
  refresh(): Promise<boolean>;
  /** True when the last read of the store succeeded. */
  storeReachable(): boolean;
  /** True when the last read found a current build (false after Redis restarted empty). */
  storeHasBuild(): boolean;
  stop(): void;
}

const noRules = createRouteRulesMatcher({});

export function followCurrentBuild(store: BuildStore, log: FastifyBaseLogger, pollMs: number): CurrentBuild {
  let info: BuildInfo | null = null;
  let matcher = noRules;
  let sessionCookie: string | undefined;
  let pageVaries: readonly PageVary[] = [];
  let reachable = false;
  let hasBuild = false;
  const metas = metaMemory(store);
  let renderers = new Map<string, string[]>();

  async function apply(next: BuildInfo): Promise<void> {
    if (info && info.id === next.id && info.timestamp === next.timestamp) return;
    const meta = metas.known(next.id) ?? (await store.meta(next.id));
    if (!meta) throw new Error(`build ${next.id} has no meta in the store yet`);
    const nextMatcher = rememberMatches(createRouteRulesMatcher(meta.matcher ?? {}));
    // A cookie name that cannot match would let signed-in pages into the shared cache.
    if (!validSessionCookie(meta.sessionCookie)) throw new Error(`build ${next.id} names a malformed session cookie`);
    // A malformed declaration would key pages on the wrong thing: the last good build stays.
    if (!validPageVaries(meta.pageVaries)) throw new Error(`build ${next.id} declares malformed pageVaries`);
    metas.remember(meta);
    info = { id: next.id, timestamp: next.timestamp };
    matcher = nextMatcher;
    sessionCookie = meta.sessionCookie;
    pageVaries = meta.pageVaries ?? [];
    log.info({ buildId: next.id, rules: nextMatcher.size }, 'build applied');
  }

  async function refresh(): Promise<boolean> {
    try {
      const current = await store.current();
      if (!reachable) log.info({ store: store.kind }, 'build store reachable');
      reachable = true;
      hasBuild = current !== null;
      // A meta that is missing or does not compile leaves the last good build in place.
      if (current) await apply(current).catch((error: unknown) => log.warn({ err: error, buildId: current.id }, 'build not applied'));
      // Read after the current build: a renderer announces itself before it publishes its build,
      // so a gateway that sees a new current build also sees that build's renderer.
      renderers = groupByBuild(await store.renderers());
      return true;
    } catch (error) {
      // Redis's own reason is logged by its connection (packages/shared/src/redis/connection.ts), with backoff.
      if (reachable)
        log.warn(
          { store: store.kind, reason: store.unavailableReason() ?? (error as Error).message },
          'build store unreachable; keeping the last build',
        );
      reachable = false;
      return false;
    }
  }

  const queueRefresh = oneAtATime(refresh);

  const unwatch = store.watch(() => void queueRefresh());
  const timer = setInterval(() => void queueRefresh(), pollMs);
  timer.unref();

  return {
    info: () => info,
    matcher: () => matcher,
    sessionCookie: () => sessionCookie,
    pageVaries: () => pageVaries,
    meta: metas.meta,
    renderersOf: (id) => renderers.get(id) ?? [],
    allRenderers: () => [...renderers.values()].flat(),
    refresh: queueRefresh,
    storeReachable: () => reachable,
    storeHasBuild: () => reachable && hasBuild,
    stop() {
      clearInterval(timer);
      unwatch();
    },
  };
}

/** The metas of the last BUILDS_KEPT builds read: a build's meta never changes. */
function metaMemory(store: BuildStore): {
  remember(meta: BuildMeta): void;
  known(id: string): BuildMeta | undefined;
  meta: CurrentBuild['meta'];
} {
  const cache = new Map<string, BuildMeta>();
  const remember = (meta: BuildMeta) => {
    cache.delete(meta.id);
    cache.set(meta.id, meta);
    if (cache.size > BUILDS_KEPT) cache.delete(cache.keys().next().value!);
  };
  return {
    remember,
    known: (id) => cache.get(id),
    async meta(id) {
      if (!isBuildId(id)) return null;
      // A build's meta never changes, so a cached one answers at once, Redis up or down.
      const cached = cache.get(id);
      if (cached) return cached;
      try {
        const meta = await store.meta(id);
        if (meta) remember(meta);
        return meta;
      } catch {
        return undefined;
      }
    },
  };
}

/** `run` one at a time: a call while it runs queues one more run after it (a change event during a poll). */
function oneAtATime(run: () => Promise<boolean>): () => Promise<boolean> {
  let running: Promise<boolean> | null = null;
  let again = false;
  const queued = (): Promise<boolean> => {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => {
      running = null;
      if (again) {
        again = false;
        void queued();
      }
    });
    return running;
  };
  return queued;
}

function groupByBuild(entries: readonly RendererEntry[]): Map<string, string[]> {
  const byBuild = new Map<string, string[]>();
  for (const { buildId, url } of entries) byBuild.set(buildId, [...(byBuild.get(buildId) ?? []), url].sort());
  return byBuild;
}
