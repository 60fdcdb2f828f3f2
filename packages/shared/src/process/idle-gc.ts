/**
 * Gives memory back after a burst. Under load V8 grows the old generation with garbage that was
 * promoted while requests were in flight, and keeps those pages once the burst is over: the
 * renderer held 200 MB of RSS with 25 MB of live heap (docs/decisions/performance.md). Once a
 * service has answered a burst of requests and then been quiet for a whole period, one full
 * collection returns the empty pages. A collection needs a burst's worth of requests since the
 * last one, so sparse traffic causes one only every `burst` requests. Only where the process was started with --expose-gc (`npm start` does,
 * packages/cli/src/services.ts); otherwise this does nothing.
 *
 * A second collection once the service has been quiet for 6 s gives the young generation back: V8
 * shrinks it (to its smallest size) only in a full collection that finds the allocation rate of the
 * last 5 s low, so the first one, 2-4 s after the burst, keeps it as large as the burst made it
 * (16 MB for a service run with --max-semi-space-size=8). The services can then run a young
 * generation large enough for their load and still settle small. The first collection stays early:
 * a service quiet for a few seconds between bursts starts the next one with its old generation
 * compacted, where it would otherwise collect it during the burst.
 * Health probes do not count as requests: an orchestrator's probe every few seconds would otherwise
 * keep a service from ever being quiet.
 *
 * A collection in a quiet period has a price: V8 throws away the optimized code of everything the
 * requests ran (the hidden classes of their objects die with them, and the code built on those
 * classes is dropped), so the next burst runs interpreted and compiles it all again. Measured
 * (docs/decisions/performance.md, stop 42): a proxied page cost the gateway 1.4-1.5 ms with the
 * collection between bursts and 0.7-0.9 ms without; a render cost the renderer 4.4-4.8 ms against
 * 3.2-3.3. So a collection runs only where it gives back enough to be worth that: the heap V8 holds
 * must have grown by `minGrowthBytes` since the last one (the renderer's grows by 37-48 MB in a
 * burst of renders, the gateway's by about 12 MB in a burst of proxied pages).
 */

import { getHeapStatistics } from 'node:v8';

export interface IdleGc {
  /** Called for each answered request. */
  touch(): void;
  stop(): void;
}

export interface IdleGcOptions {
  /** How often the collector looks whether requests came. */
  periodMs?: number;
  /** Whole periods with no request after the first collection's: then the second (the young generation's) runs. */
  youngQuietPeriods?: number;
  /** Requests since the last collection that make a burst. */
  burst?: number;
  /** Growth of the heap V8 holds since the last collection below which none runs (see above). */
  minGrowthBytes?: number;
}

type Collect = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * One collection that gives the freed pages back to the system, as this V8 can. V8 12 and later
 * (Node 22, 24) take gc()'s options: the "last resort" collection does it, where a plain gc()
 * leaves the RSS where it was. V8 11 (Node 20) reads any options object as a young-generation
 * collection, so there it is two full ones: the second shrinks what the first freed. Measured on
 * 100 MB of promoted garbage (packages/shared/src/process/idle-gc.integration.test.ts): 111 → 55 MB on Node 20 with two
 * plain collections, 108 with the options; 213 → 49 on Node 22 and 24 with them, 205 without.
 */
export function givingBack(gc: Collect, v8Version: string = process.versions.v8): () => void {
  if (Number(v8Version.split('.')[0]) >= 12) return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return () => {
    gc();
    gc();
  };
}

const heldHeapBytes = () => getHeapStatistics().total_heap_size;

/**
 * `collect` defaults to givingBack() of the process's gc, absent without --expose-gc; `heldBytes`
 * to the heap V8 holds from the system (used and free pages, both generations).
 */
export function startIdleGc(
  { periodMs = 2000, youngQuietPeriods = 3, burst = 200, minGrowthBytes = 24 * 1024 * 1024 }: IdleGcOptions = {},
  collect: (() => void) | undefined = exposedCollect(),
  heldBytes: () => number = heldHeapBytes,
): IdleGc {
  if (!collect) return { touch: () => undefined, stop: () => undefined };
  // What the heap held after the last collection (or at start): growth is measured from here.
  let floor = heldBytes();
  let busy = false;
  let quiet = 0;
  let sinceCollect = 0;
  let youngPending = false;
  const collectFromFloor = () => {
    collect();
    floor = heldBytes();
  };
  const timer = setInterval(() => {
    quiet = busy ? 0 : quiet + 1;
    busy = false;
    if (quiet >= 1 && sinceCollect >= burst) {
      sinceCollect = 0;
      // Too little to give back for the code it would cost: this burst is let be.
      if (heldBytes() - floor < minGrowthBytes) return;
      youngPending = true;
      collectFromFloor();
    } else if (youngPending && quiet >= youngQuietPeriods) {
      youngPending = false;
      collectFromFloor();
    }
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

function exposedCollect(): (() => void) | undefined {
  const gc = (globalThis as { gc?: Collect }).gc;
  return gc ? givingBack(gc) : undefined;
}
