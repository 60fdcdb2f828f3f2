import type { CompiledRouteRules } from '../route-rule-types.js';

/** What `/_nuxt/builds/latest.json` answers. */
export interface BuildInfo {
  id: string;
  timestamp: number;
}

/** What `/_nuxt/builds/meta/{id}.json` answers. */
export interface BuildMeta extends BuildInfo {
  /** The route rules of this build, compiled from the site config. */
  matcher: CompiledRouteRules;
  /** Paths rendered at build time; empty while nothing is prerendered. */
  prerendered: string[];
}

/** A renderer process and the build it serves (docs/decisions/skew-protection.md). */
export interface RendererEntry {
  buildId: string;
  /** Its own address (the pod's), not a load balancer's. */
  url: string;
}

/**
 * Where the renderer publishes its build and the gateway reads it. Two implementations share
 * one contract suite (`build-store.contract.ts`): Redis and files under the build output.
 */
export interface BuildStore {
  readonly kind: 'redis' | 'file';
  /** Makes `meta` the current build and keeps the metas of the last `keep` builds. */
  publish(meta: BuildMeta): Promise<void>;
  current(): Promise<BuildInfo | null>;
  /** The meta of a build; null for an unknown, trimmed or malformed id. */
  meta(id: string): Promise<BuildMeta | null>;
  /** Calls `listener` whenever the current build changes; returns a function that stops it. */
  watch(listener: (build: BuildInfo) => void): () => void;
  /**
   * Says that a renderer of `buildId` answers at `url` for the next `ttlMs` (renderers repeat it
   * while they run), so gateways can send a build's requests to a renderer of that build.
   */
  announceRenderer(entry: RendererEntry, ttlMs: number): Promise<void>;
  /** Takes a renderer out at once (it is shutting down). */
  withdrawRenderer(entry: RendererEntry): Promise<void>;
  /** The renderers announced and not expired, of every build. */
  renderers(): Promise<RendererEntry[]>;
  /** True when the store answers now. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** How many builds' metas stay readable, so clients on an old build still get theirs. */
export const BUILDS_KEPT = 10;

const BUILD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Build ids become file names and Redis keys: only plain ids are ever looked up. */
export function isBuildId(value: unknown): value is string {
  return typeof value === 'string' && BUILD_ID.test(value);
}
