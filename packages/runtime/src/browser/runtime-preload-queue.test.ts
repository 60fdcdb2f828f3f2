import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_ROUTE_PRELOADS } from './preload-queue.js';
import { createPreloadQueue, preloadAllowed } from './preload-queue.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('preload queue', () => {
  it(`runs at most ${MAX_CONCURRENT_ROUTE_PRELOADS} at once, the rest in order as slots free up`, async () => {
    const queue = createPreloadQueue();
    const jobs = Array.from({ length: 10 }, () => deferred());
    const started: number[] = [];
    jobs.forEach((job, i) => queue.add(`k${i}`, () => (started.push(i), job.promise)));
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    expect([queue.inFlight, queue.waiting]).toEqual([4, 6]);
    jobs[2]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    jobs[0]!.reject(new Error('404'));
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    jobs.forEach((job) => job.resolve());
    await queue.idle();
    expect(started).toHaveLength(10);
    expect(queue.peak).toBe(MAX_CONCURRENT_ROUTE_PRELOADS);
    expect(queue.inFlight).toBe(0);
  });

  it('preloads a key once, but tries a failed one again', async () => {
    const queue = createPreloadQueue();
    let runs = 0;
    let fail = true;
    const run = async () => {
      runs += 1;
      if (fail) throw new Error('offline');
    };
    queue.add('a', run);
    queue.add('a', run);
    await queue.idle();
    expect(runs).toBe(1);
    fail = false;
    queue.add('a', run);
    await queue.idle();
    queue.add('a', run);
    await queue.idle();
    expect(runs).toBe(2);
  });
});

describe('connections', () => {
  it('preloads unless the visitor saves data or is on a 2g-class connection', () => {
    expect(preloadAllowed(undefined)).toBe(true);
    expect(preloadAllowed({ effectiveType: '4g' })).toBe(true);
    expect(preloadAllowed({ effectiveType: '3g' })).toBe(true);
    expect(preloadAllowed({ effectiveType: '2g' })).toBe(false);
    expect(preloadAllowed({ effectiveType: 'slow-2g' })).toBe(false);
    expect(preloadAllowed({ effectiveType: '4g', saveData: true })).toBe(false);
  });
});
