/** Identical work in flight is done once per process: later callers join the first caller's promise. */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  get size(): number {
    return this.inFlight.size;
  }

  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  run(key: string, work: () => Promise<T>): Promise<T> {
    const current = this.inFlight.get(key);
    if (current) return current;
    const promise = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }
}
