/**
 * The preload queue (docs/spec.md §9): at most 4 preloads in flight, the rest wait in order; each key is
 * preloaded once (a failed one may be tried again later). Preloads are skipped altogether on a
 * save-data or 2g connection. Browser-safe and pure enough to test without a browser.
 */

/** docs/spec.md §9. */
export const MAX_CONCURRENT_ROUTE_PRELOADS = 4;

export interface PreloadQueue {
  /** Queues `run` under `key` unless that key is queued, running or done. */
  add(key: string, run: () => Promise<unknown>): void;
  readonly inFlight: number;
  readonly waiting: number;
  /** The most preloads ever in flight at once. */
  readonly peak: number;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
}

export function createPreloadQueue(concurrency = MAX_CONCURRENT_ROUTE_PRELOADS): PreloadQueue {
  const known = new Set<string>();
  const waiting: Array<() => Promise<unknown>> = [];
  let inFlight = 0;
  let peak = 0;
  let idleWaiters: Array<() => void> = [];

  const pump = () => {
    while (inFlight < concurrency && waiting.length > 0) {
      const run = waiting.shift()!;
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      void Promise.resolve()
        .then(run)
        .catch(() => undefined)
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
    if (inFlight === 0 && waiting.length === 0) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  };

  return {
    add(key, run) {
      if (known.has(key)) return;
      known.add(key);
      // A failure is forgotten so a later hover can try again.
      waiting.push(() =>
        run().catch((error: unknown) => {
          known.delete(key);
          throw error;
        }),
      );
      pump();
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiting.length;
    },
    get peak() {
      return peak;
    },
    idle() {
      if (inFlight === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}

/** Nuxt's rule: no preloading when the visitor saves data or is on a 2g-class connection. */
export function preloadAllowed(connection: { saveData?: boolean; effectiveType?: string } | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !/2g/.test(connection.effectiveType ?? '');
}
