import { afterEach, describe, expect, it, vi } from 'vitest';
import { givingBack, startIdleGc } from './idle-gc.js';

const MB = 1024 * 1024;

describe('the collection after a burst', () => {
  afterEach(() => void vi.useRealTimers());

  // The heap V8 holds, as the collector reads it: each burst below grows it past the threshold.
  let held = 0;
  const heldBytes = () => held;
  const grow = () => void (held += 32 * MB);

  it('runs once a period passes with no request after a burst, and not again until the next burst', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const idle = startIdleGc({ periodMs: 1000, youngQuietPeriods: 100, burst: 3 }, gc, heldBytes);
    vi.advanceTimersByTime(3000);
    expect(gc).not.toHaveBeenCalled(); // never busy: nothing to give back
    grow();
    for (let i = 0; i < 3; i++) idle.touch();
    vi.advanceTimersByTime(1000); // the busy period
    expect(gc).not.toHaveBeenCalled();
    idle.touch();
    vi.advanceTimersByTime(1000); // still busy
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000); // a quiet period after the burst
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(gc).toHaveBeenCalledTimes(1);
    grow();
    for (let i = 0; i < 3; i++) idle.touch();
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(2);
    idle.stop();
  });

  it('collects a second time once quiet for the young generation’s periods, a request in between putting it off', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const idle = startIdleGc({ periodMs: 1000, youngQuietPeriods: 3, burst: 3 }, gc, heldBytes);
    grow();
    for (let i = 0; i < 3; i++) idle.touch();
    vi.advanceTimersByTime(1000); // the busy period
    vi.advanceTimersByTime(1000); // the first quiet one: the first collection
    expect(gc).toHaveBeenCalledTimes(1);
    idle.touch(); // one request: not a burst, but the quiet count starts again
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000); // the third quiet period in a row
    expect(gc).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(2); // once per burst
    idle.stop();
  });

  it('leaves a few requests now and then alone', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const idle = startIdleGc({ periodMs: 1000, burst: 3 }, gc, heldBytes);
    grow();
    idle.touch();
    vi.advanceTimersByTime(5000);
    idle.touch();
    vi.advanceTimersByTime(5000);
    expect(gc).not.toHaveBeenCalled();
    idle.stop();
  });

  it('lets a burst be when the heap grew by less than is worth the optimized code a collection drops', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const idle = startIdleGc({ periodMs: 1000, youngQuietPeriods: 3, burst: 3, minGrowthBytes: 24 * MB }, gc, heldBytes);
    held += 12 * MB;
    for (let i = 0; i < 3; i++) idle.touch();
    vi.advanceTimersByTime(10_000);
    expect(gc).not.toHaveBeenCalled();
    // Growth adds up across bursts until one collection is worth it; then it is measured from after it.
    held += 12 * MB;
    for (let i = 0; i < 3; i++) idle.touch();
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(1);
    gc.mockImplementation(() => void (held -= 20 * MB));
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(2); // the young generation's
    held += 20 * MB;
    for (let i = 0; i < 3; i++) idle.touch();
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(2);
    idle.stop();
  });

  it('does nothing where the process has no gc (started without --expose-gc)', () => {
    const idle = startIdleGc({}, undefined);
    expect(() => idle.touch()).not.toThrow();
    idle.stop();
  });

  it('asks V8 12 and later for the last-resort collection, and V8 11 (Node 20) for two full ones', () => {
    const gc = vi.fn();
    givingBack(gc, '13.6.233.17-node.53')();
    expect(gc.mock.calls).toEqual([[{ type: 'major', execution: 'sync', flavor: 'last-resort' }]]);
    gc.mockClear();
    givingBack(gc, '12.4.254.21-node.57')();
    expect(gc.mock.calls).toEqual([[{ type: 'major', execution: 'sync', flavor: 'last-resort' }]]);
    gc.mockClear();
    givingBack(gc, '11.3.244.8-node.38')();
    expect(gc.mock.calls).toEqual([[], []]);
  });
});
