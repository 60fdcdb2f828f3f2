/**
 * Gives memory back after a burst. Under load V8 grows the old generation with garbage that was
 * promoted while requests were in flight, and keeps those pages once the burst is over: the
 * renderer held 200 MB of RSS with 25 MB of live heap (docs/decisions/performance.md). Once a
 * service has answered a burst of requests and then been idle for a whole period, one full
 * collection returns the empty pages. A collection needs a burst's worth of requests since the
 * last one, so sparse traffic causes one only every `burst` requests. Only where the process was started with --expose-gc (`npm start` does,
 * scripts/services.ts); otherwise this does nothing.
 */

export interface IdleGc {
  /** Called for each answered request. */
  touch(): void;
  stop(): void;
}

export interface IdleGcOptions {
  /** A period with no request after the burst: then the collection runs. */
  periodMs?: number;
  /** Requests since the last collection that make a burst. */
  burst?: number;
}

type Collect = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export function startIdleGc(
  { periodMs = 2500, burst = 200 }: IdleGcOptions = {},
  gc: Collect | undefined = (globalThis as { gc?: Collect }).gc,
): IdleGc {
  if (!gc) return { touch: () => undefined, stop: () => undefined };
  let busy = false;
  let sinceCollect = 0;
  const timer = setInterval(() => {
    if (!busy && sinceCollect >= burst) {
      sinceCollect = 0;
      // V8's "last resort" collection also gives the freed pages back to the system; a plain
      // gc() shrank the heap but left the RSS where it was.
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    }
    busy = false;
  }, periodMs);
  timer.unref();
  return {
    touch() {
      busy = true;
      sinceCollect++;
    },
    stop: () => clearInterval(timer),
  };
}
