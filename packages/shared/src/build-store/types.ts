import type { CompiledRouteRules } from '../route-rules/types.js';

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
  /**
   * The cookie that marks a signed-in visitor (the site's `defineSite` sessionCookie): the gateway
   * never answers a request carrying it from the render cache. Absent: the site has no sessions.
   */
  sessionCookie?: string;
  /**
   * What every page's HTML depends on beyond its path, as the renderer declares it (the colour
   * class it reads from a cookie): the gateway's render cache keys every page on these, and only
   * these reach a cached render. Absent: nothing.
   */
  pageVaries?: PageVary[];
}

/**
 * One request cookie that changes a page: its value up to the first `.` when it is one of
 * `values`; any other value (or none) renders the same page as no cookie, and shares its entry.
 */
export interface PageVary {
  cookie: string;
  values: string[];
}

/** A renderer process and the build it serves (docs/decisions/skew-protection.md). */
export interface RendererEntry {
  buildId: string;
  /** Its own address (the pod's), not a load balancer's. */
  url: string;
}

/**
 * What a publish did: made the build current, or only kept its meta because a build published
 * after it exists (a restarted renderer of an older build never rolls a deploy back).
 */
export type PublishOutcome = 'current' | 'superseded';

/** A build in the order builds were first published, newest first (`builds()`). */
export interface PublishedBuild extends BuildInfo {
  /** Its meta is still kept (it can be promoted). */
  kept: boolean;
}

/**
 * Where the renderer publishes its build and the gateway reads it. Two implementations share
 * one contract suite (`build-store.contract.ts`): Redis and files under the build output.
 */
export interface BuildStore {
  readonly kind: 'redis' | 'file';
  /**
   * Keeps `meta` readable (with the metas of the last `keep` builds) and makes it the current
   * build unless a build was first published after it. A build counts as first published when its
   * id is new to the store, or when it comes with a later build timestamp than the store knows for
   * that id (a fresh build of the same content); a renderer restarting with the same build is
   * not a new publication. Design: docs/decisions/skew-protection.md, "No rollback by restart".
   */
  publish(meta: BuildMeta): Promise<PublishOutcome>;
  /** The operator's rollback: makes a kept build current and the newest published. False when its meta is gone. */
  promote(id: string): Promise<boolean>;
  /** The builds the store remembers, newest first publication first. */
  builds(): Promise<PublishedBuild[]>;
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
  /** Why the store cannot be used, in Redis's or the OS's words; null when nothing is known to be wrong. */
  unavailableReason(): string | null;
  close(): Promise<void>;
}

/** How many builds' metas stay readable, so clients on an old build still get theirs. */
export const BUILDS_KEPT = 10;

/** How many builds the publication order remembers (ids only): far more than are ever rolled back to. */
export const BUILDS_REMEMBERED = 1000;

const BUILD_ID = /^[A-Za-z0-9_-]{1,64}$/;

// RFC 6265's cookie-name: an HTTP token.
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

/** A meta's `sessionCookie` is absent or a cookie name: anything else could never match a request's cookie. */
export function validSessionCookie(value: unknown): value is string | undefined {
  return value === undefined || (typeof value === 'string' && COOKIE_NAME.test(value));
}

/** A meta's `pageVaries` is absent or a list of cookie names, each with plain values. */
export function validPageVaries(value: unknown): value is PageVary[] | undefined {
  if (value === undefined) return true;
  return (
    Array.isArray(value) &&
    value.every(
      (vary: Partial<PageVary> | null) =>
        typeof vary?.cookie === 'string' &&
        COOKIE_NAME.test(vary.cookie) &&
        Array.isArray(vary.values) &&
        vary.values.every((item) => typeof item === 'string' && /^[\w-]{1,64}$/.test(item)),
    )
  );
}

/** Build ids become file names and Redis keys: only plain ids are ever looked up. */
export function isBuildId(value: unknown): value is string {
  return typeof value === 'string' && BUILD_ID.test(value);
}
