import { describe, expect, it } from 'vitest';
import { createFreshnessMonitor } from './build-freshness.js';

/** A hand-driven clock: `schedule` records timers, `advance` fires the due ones. */
function manualClock() {
  let now = 0;
  let timers: Array<{ at: number; run: () => void }> = [];
  return {
    schedule(run: () => void, ms: number) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => void (timers = timers.filter((t) => t !== timer));
    },
    async advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const timer of due) timer.run();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    get pending() {
      return timers.length;
    },
  };
}

describe('build freshness', () => {
  it('asks every interval, and stops once another build is announced', async () => {
    const clock = manualClock();
    let latest = 'b1';
    const monitor = createFreshnessMonitor({
      currentId: 'b1',
      intervalMs: 1000,
      fetchLatestId: async () => latest,
      schedule: clock.schedule,
    });
    monitor.start();
    await clock.advance(999);
    expect(monitor.checks).toBe(0);
    await clock.advance(1);
    expect([monitor.checks, monitor.outdated]).toEqual([1, null]);
    await clock.advance(1000);
    expect(monitor.checks).toBe(2);
    latest = 'b2';
    await clock.advance(1000);
    expect([monitor.checks, monitor.outdated]).toEqual([3, 'poll']);
    expect(clock.pending).toBe(0);
    await clock.advance(5000);
    expect(monitor.checks).toBe(3);
  });

  it('keeps asking through network failures and unknown answers', async () => {
    const clock = manualClock();
    let calls = 0;
    const monitor = createFreshnessMonitor({
      currentId: 'b1',
      intervalMs: 10,
      fetchLatestId: async () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return null;
      },
      schedule: clock.schedule,
    });
    monitor.start();
    await clock.advance(10);
    await clock.advance(10);
    await clock.advance(10);
    expect([monitor.checks, monitor.outdated]).toEqual([3, null]);
  });

  it('a payload from another build counts, the same build does not', () => {
    const clock = manualClock();
    const monitor = createFreshnessMonitor({ currentId: 'b1', intervalMs: 10, fetchLatestId: async () => 'b1', schedule: clock.schedule });
    monitor.start();
    monitor.report('b1', 'payload');
    expect(monitor.outdated).toBeNull();
    monitor.report('b2', 'payload');
    expect(monitor.outdated).toBe('payload');
    expect(clock.pending).toBe(0);
  });
});
