import { describe, expect, it } from 'vitest';
import { SharedFlights } from './shared-flights.js';

/** Work that waits for the test to finish it, and tells whether its own signal aborted. */
function pendingWork() {
  let finish!: (value: string) => void;
  const seen: { signal?: AbortSignal; calls: number } = { calls: 0 };
  const work = (signal: AbortSignal) => {
    seen.signal = signal;
    seen.calls++;
    return new Promise<string>((resolve) => (finish = resolve));
  };
  return { work, seen, finish: (value: string) => finish(value) };
}

describe('shared flights', () => {
  it('runs identical work once; one asker leaving lets it go at once but keeps the work for the others', async () => {
    const flights = new SharedFlights<string>();
    const { work, seen, finish } = pendingWork();
    const a = new AbortController();
    const b = new AbortController();
    const first = flights.run('k', a.signal, work);
    const second = flights.run('k', b.signal, work);
    a.abort();
    await expect(first).rejects.toMatchObject({ code: 'IMAGE_ABANDONED' });
    await Promise.resolve();
    expect(seen.calls).toBe(1);
    expect(seen.signal!.aborted).toBe(false);
    finish('bytes');
    expect(await second).toBe('bytes');
    expect(flights.size).toBe(0);
  });

  it('aborts the work when its last asker leaves, and the next asker starts it afresh', async () => {
    const flights = new SharedFlights<string>();
    const given = pendingWork();
    const a = new AbortController();
    const b = new AbortController();
    const first = flights.run('k', a.signal, given.work);
    const second = flights.run('k', b.signal, given.work);
    a.abort();
    b.abort();
    await expect(Promise.all([first, second])).rejects.toMatchObject({ code: 'IMAGE_ABANDONED' });
    expect(given.seen.signal!.aborted).toBe(true);
    expect(flights.has('k')).toBe(false);

    const fresh = pendingWork();
    const third = flights.run('k', new AbortController().signal, fresh.work);
    await Promise.resolve();
    expect(fresh.seen.calls).toBe(1);
    fresh.finish('again');
    given.finish('too late');
    expect(await third).toBe('again');
  });

  it('refuses an asker who already left without starting anything', async () => {
    const flights = new SharedFlights<string>();
    const { work, seen } = pendingWork();
    await expect(flights.run('k', AbortSignal.abort(), work)).rejects.toMatchObject({ statusCode: 499 });
    expect(seen.calls).toBe(0);
    expect(flights.size).toBe(0);
  });
});
