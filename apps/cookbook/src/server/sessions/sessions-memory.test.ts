import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemorySessionStore } from './memory-session-store.js';
import { describeSessionStore } from './session-store.contract.js';

// Memory stores live and die with their process: no sharing between two of them. Their clock is
// real time moved on by the test, so expiry needs no waiting.
let skew = 0;
describeSessionStore(
  'memory',
  async () => createMemorySessionStore({ sweepIntervalMs: 0, now: () => Date.now() + skew }),
  false,
  async (ms) => {
    skew += ms;
  },
);

describe('memory session store', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps expired sessions it is never asked about', async () => {
    vi.useFakeTimers();
    let now = 1_000;
    const store = createMemorySessionStore({ sweepIntervalMs: 10, now: () => now });
    const session = await store.create('u', 100);
    now = 2_000;
    vi.advanceTimersByTime(40);
    now = 1_050; // back inside the lifetime: only a sweep can explain the miss
    expect(await store.get(session.id)).toBeNull();
    await store.close();
  });
});
