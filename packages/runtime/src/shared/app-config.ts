/**
 * What the browser needs to know about the server, written once into the page as JSON:
 * the build id (payload URLs, freshness) and the public origin (canonical URLs). Browser-safe.
 */
export const APP_CONFIG_ELEMENT_ID = '__APP_CONFIG__';

/** docs/spec.md §9: how often the browser checks for a newer build unless the server says otherwise. */
export const BUILD_CHECK_INTERVAL_MS = 3_600_000;

export interface AppConfig {
  buildId: string;
  publicOrigin: string;
  assetsPrefix: string;
  /** How often to check for a newer build (ms); the hour of docs/spec.md §4 when absent. */
  buildCheckIntervalMs?: number;
  /** Set when the server took this visitor for a crawler (isbot): it keeps the server's HTML. */
  crawler?: boolean;
}

let cached: AppConfig | null = null;

/** Reads the inline config on first use (browser only). */
export function appConfig(): AppConfig {
  if (cached) return cached;
  const text = document.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) throw new Error(`#${APP_CONFIG_ELEMENT_ID} is missing from the page`);
  cached = JSON.parse(text) as AppConfig;
  return cached;
}

/** The origin canonical URLs use: the configured one on the server, the page's in the browser. */
export function publicOrigin(): string {
  return typeof document === 'undefined' ? '' : appConfig().publicOrigin || window.location.origin;
}
