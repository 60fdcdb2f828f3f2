/** A least-recently-used map bounded by entry count and by a total size. */
export class Lru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxSize = Number.POSITIVE_INFINITY,
    private readonly onEvict: (key: string, value: V) => void = () => undefined,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalSize(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, size = 0): void {
    this.delete(key);
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      if (oldest === key) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
      this.onEvict(oldest, entry.value);
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.size;
    return true;
  }
}
