/**
 * Collections in memory (a whole set, or a set's build-time index): loaded lazily, kept in an LRU
 * bounded by approximate bytes. Preloaded (pinned) sets are never evicted. Concurrent first requests share one load.
 */
import type { IconSource, LoadedIconSet } from './icon-set-file.js';

export type IconSetLoader = (prefix: string) => Promise<LoadedIconSet>;

export interface CacheStats {
  /** Loaded prefixes, least recently used first. */
  prefixes: string[];
  bytes: number;
  limitBytes: number;
  loads: number;
  evictions: number;
  /** `get` calls answered from memory, and those that loaded (or waited for a load). */
  hits: number;
  misses: number;
}

interface Entry extends LoadedIconSet {
  pinned: boolean;
}

export class IconSetCache {
  // A Map iterates in insertion order; re-inserting on use makes it an LRU.
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<IconSource>>();
  private bytes = 0;
  private loads = 0;
  private evictions = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly loader: IconSetLoader,
    private readonly limitBytes: number,
  ) {}

  /** The set, from memory or loaded now; one load per prefix however many callers wait. */
  get(prefix: string): Promise<IconSource> {
    const hit = this.peek(prefix);
    if (hit) {
      this.hits += 1;
      return Promise.resolve(hit);
    }
    this.misses += 1;
    return this.load(prefix, false);
  }

  /** The set when it is in memory, marking it recently used; no loading. */
  peek(prefix: string): IconSource | undefined {
    const entry = this.entries.get(prefix);
    if (!entry) return undefined;
    this.entries.delete(prefix);
    this.entries.set(prefix, entry);
    return entry.source;
  }

  /** Loads a set that stays for the life of the process (the site's own sets). */
  async pin(prefix: string): Promise<void> {
    if (!this.entries.has(prefix)) await this.load(prefix, true);
    // A request may have started an unpinned load of the same set first.
    const entry = this.entries.get(prefix);
    if (entry) entry.pinned = true;
  }

  has(prefix: string): boolean {
    return this.entries.has(prefix);
  }

  stats(): CacheStats {
    return {
      prefixes: [...this.entries.keys()],
      bytes: this.bytes,
      limitBytes: this.limitBytes,
      loads: this.loads,
      evictions: this.evictions,
      hits: this.hits,
      misses: this.misses,
    };
  }

  private load(prefix: string, pinned: boolean): Promise<IconSource> {
    const pending = this.loading.get(prefix);
    if (pending) return pending;
    const promise = this.loader(prefix).then(
      (loaded) => {
        this.loading.delete(prefix);
        this.loads += 1;
        this.store(prefix, { ...loaded, pinned });
        return loaded.source;
      },
      (error: unknown) => {
        this.loading.delete(prefix);
        throw error;
      },
    );
    this.loading.set(prefix, promise);
    return promise;
  }

  /**
   * Evicts least recently used unpinned sets until the new one fits. A set that cannot fit even
   * then is still served to the requests that waited for it, just not kept.
   */
  private store(prefix: string, entry: Entry): void {
    if (!entry.pinned) {
      if (this.pinnedBytes() + entry.bytes > this.limitBytes) return;
      this.evictUntil(this.limitBytes - entry.bytes);
    }
    this.entries.set(prefix, entry);
    this.bytes += entry.bytes;
  }

  private pinnedBytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) if (entry.pinned) total += entry.bytes;
    return total;
  }

  private evictUntil(targetBytes: number): void {
    for (const [prefix, entry] of this.entries) {
      if (this.bytes <= targetBytes) return;
      if (entry.pinned) continue;
      this.entries.delete(prefix);
      this.bytes -= entry.bytes;
      this.evictions += 1;
    }
  }
}
