/**
 * A least-recently-used map bounded by entry count and by total size (bytes, usually), on
 * lru-cache. One shape for the image results, the icon sets and the gateway's render cache.
 */
import { LRUCache } from 'lru-cache';

export interface LruOptions<V> {
  maxEntries: number;
  /** The sum of the sizes given to `set`; unbounded when omitted. */
  maxSize?: number;
  onEvict?: (key: string, value: V) => void;
}

export class Lru<V extends NonNullable<unknown>> {
  private readonly cache: LRUCache<string, V>;

  constructor({ maxEntries, maxSize, onEvict }: LruOptions<V>) {
    this.cache = new LRUCache<string, V>({
      max: maxEntries,
      ...(maxSize !== undefined && Number.isFinite(maxSize) ? { maxSize } : { maxSize: Number.MAX_SAFE_INTEGER }),
      // lru-cache wants positive sizes; a zero-sized entry still takes a slot.
      sizeCalculation: () => 1,
      ...(onEvict ? { dispose: (value: V, key: string, reason: string) => reason === 'evict' && onEvict(key, value) } : {}),
    });
  }

  get size(): number {
    return this.cache.size;
  }

  get totalSize(): number {
    return this.cache.calculatedSize;
  }

  get(key: string): V | undefined {
    return this.cache.get(key);
  }

  has(key: string): boolean {
    return this.cache.has(key);
  }

  /** An entry larger than the whole bound is not kept (and evicts nothing). */
  set(key: string, value: V, size = 0): void {
    this.cache.set(key, value, { size: Math.max(1, Math.ceil(size)) });
  }

  delete(key: string): boolean {
    return this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }

  keys(): IterableIterator<string> {
    return this.cache.keys();
  }
}
