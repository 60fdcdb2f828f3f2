/**
 * The shape of route rules once the build has normalised them. Shared by the build, the
 * gateway, the build store and the browser, so it holds types only.
 */
export interface RedirectRule {
  to: string;
  statusCode: number;
}

/**
 * A cached route, Nitro's cache options once normalised (`swr`, `isr` and `cache` all become
 * this). Answered by the gateway from its memory and the shared store, anonymous requests only.
 */
export interface CacheRule {
  /** Seconds an entry is fresh; null: until the next build. */
  maxAge: number | null;
  /** Seconds a stale entry may still be served while one request refreshes it; null: no limit. */
  staleMaxAge: number | null;
  /** Request headers (`accept-language`) or cookies (`cookie:name`) that change the page. */
  varies: string[];
  /**
   * The query parameters the route reads: kept in the key and passed to the render. Every other
   * parameter is dropped from both (absent: the page reads none).
   */
  query?: string[];
}

export interface RouteRules {
  redirect?: RedirectRule;
  headers?: Record<string, string>;
  /** `false` adds `x-robots-tag: noindex`. */
  robots?: boolean;
  /** Cached at the gateway; `false` opts a sub-path out of a parent's cache. */
  cache?: CacheRule | false;
  /** Rendered at build time and served as a file (with its payload). */
  prerender?: boolean;
  /** `false`: the client-rendered shell, no server rendering (Nuxt's per-route SPA mode). */
  ssr?: boolean;
}

/** Pattern -> normalised rules, as the build writes them into the build meta. */
export type CompiledRouteRules = Record<string, RouteRules>;
