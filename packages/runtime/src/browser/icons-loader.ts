/**
 * Loads icons that are not in the build's bundle: names asked for in the same tick are batched
 * into one request per collection to the local icon service, with a timeout; when that fails the
 * public Iconify API is asked instead. A missing icon is remembered (as null) and logged once.
 */
import type { IconifyJSON } from '@iconify/types';
import { ICONS_BASE, iconSetUrl } from '@tern/shared/url-space/icons';
import { parseIconName, type IconSvg } from '../shared/icons.js';

/** docs/spec.md §9. */
export const ICON_FETCH_TIMEOUT_MS = 1500;

/** @iconify/utils, loaded with the first icon that is not in the bundle. */
const iconSets = () => import('../shared/icon-set.js');

export interface IconLoaderOptions {
  /** The local icon service, without the trailing collection: `/api/_nuxt_icon`. */
  localEndpoint?: string;
  /** The public Iconify API, asked when the local service fails. Empty string turns it off. */
  iconifyApi?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Where "missing icon" lines go (once per name). */
  warn?: (message: string) => void;
}

export const DEFAULT_LOCAL_ICON_ENDPOINT = ICONS_BASE;
export const DEFAULT_ICONIFY_API = 'https://api.iconify.design';

type Settled = IconSvg | null;

export function createIconLoader(initial: IconLoaderOptions = {}) {
  let options = { ...initial };
  const cache = new Map<string, Settled>();
  const inflight = new Map<string, Promise<Settled>>();
  const queue = new Map<string, Map<string, (icon: Settled) => void>>();
  const listeners = new Set<() => void>();
  const warned = new Set<string>();
  let flushTimer: ReturnType<typeof setTimeout> | null = null;

  function settle(fullName: string, icon: Settled): void {
    cache.set(fullName, icon);
    inflight.delete(fullName);
    if (icon === null && !warned.has(fullName)) {
      warned.add(fullName);
      (options.warn ?? console.warn)(`[icon] "${fullName}" could not be loaded; its box is kept empty`);
    }
    for (const listener of listeners) listener();
  }

  /** The icon set answered at `url`, or null on any failure: network, timeout, status, body, prefix. */
  async function fetchSet(url: string, collection: string): Promise<IconifyJSON | null> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? ICON_FETCH_TIMEOUT_MS);
    try {
      const response = await (options.fetch ?? fetch)(url, { signal: controller.signal, headers: { accept: 'application/json' } });
      if (!response.ok) return null;
      const { quicklyValidateIconSet } = await iconSets();
      const set = quicklyValidateIconSet(await response.json());
      return set?.prefix === collection ? set : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  async function loadCollection(collection: string, waiting: Map<string, (icon: Settled) => void>): Promise<void> {
    const names = [...waiting.keys()].sort();
    const local = (options.localEndpoint ?? DEFAULT_LOCAL_ICON_ENDPOINT).replace(/\/$/, '');
    const api = (options.iconifyApi ?? DEFAULT_ICONIFY_API).replace(/\/$/, '');
    // The public Iconify API answers the same URL shape as the local service (Nuxt Icon's is a copy of it).
    let set = await fetchSet(iconSetUrl(encodeURIComponent(collection), names, local), collection);
    if (!set && api) set = await fetchSet(iconSetUrl(encodeURIComponent(collection), names, api), collection);
    const { iconSvgFromSet } = await iconSets();
    for (const [name, resolve] of waiting) resolve(set ? iconSvgFromSet(set, name) : null);
  }

  function flush(): void {
    flushTimer = null;
    const batches = [...queue];
    queue.clear();
    for (const [collection, waiting] of batches) void loadCollection(collection, waiting);
  }

  /** The icon if known: IconSvg, null when missing, undefined when not loaded yet. */
  function peek(fullName: string): Settled | undefined {
    return cache.get(fullName);
  }

  function load(fullName: string): Promise<Settled> {
    if (cache.has(fullName)) return Promise.resolve(cache.get(fullName) ?? null);
    const running = inflight.get(fullName);
    if (running) return running;
    const parsed = parseIconName(fullName);
    if (!parsed) {
      settle(fullName, null);
      return Promise.resolve(null);
    }
    const promise = new Promise<Settled>((resolve) => {
      const waiting = queue.get(parsed.collection) ?? new Map<string, (icon: Settled) => void>();
      queue.set(parsed.collection, waiting);
      waiting.set(parsed.name, (icon) => {
        settle(fullName, icon);
        resolve(icon);
      });
      flushTimer ??= setTimeout(flush, 0);
    });
    inflight.set(fullName, promise);
    return promise;
  }

  return {
    load,
    peek,
    configure(change: IconLoaderOptions): void {
      options = { ...options, ...change };
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type IconLoader = ReturnType<typeof createIconLoader>;

/** The page's loader; configure its endpoints once at start with `iconLoader.configure(...)`. */
export const iconLoader = createIconLoader();
