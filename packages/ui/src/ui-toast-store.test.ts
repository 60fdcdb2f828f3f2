import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_REMOVE_DELAY_MS, TOASTS_KEPT_MAX } from './toast-store.js';
import { createToastStore } from './toast-store.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toast store', () => {
  it(`keeps at most ${TOASTS_KEPT_MAX}: the sixth pushes the oldest out`, () => {
    const store = createToastStore();
    for (let i = 1; i <= 5; i++) store.add({ title: `t${i}` });
    expect(store.getSnapshot().map((t) => t.title)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    store.add({ title: 't6' });
    expect(store.getSnapshot().map((t) => t.title)).toEqual(['t2', 't3', 't4', 't5', 't6']);
  });

  it(`closes at once and drops the toast ${TOAST_REMOVE_DELAY_MS} ms later`, () => {
    const store = createToastStore();
    const { id } = store.add({ title: 'bye' });
    store.remove(id);
    expect(store.getSnapshot()).toMatchObject([{ id, open: false }]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('gives unique ids, merges a re-used id, updates and clears', () => {
    const store = createToastStore();
    const a = store.add({ title: 'a' });
    const b = store.add({ title: 'b' });
    expect(a.id).not.toBe(b.id);
    store.add({ id: a.id, title: 'a again' });
    expect(store.getSnapshot().map((t) => t.title)).toEqual(['b', 'a again']);
    store.update(b.id, { description: 'more' });
    expect(store.getSnapshot()[0]).toMatchObject({ id: b.id, title: 'b', description: 'more' });
    store.clear();
    expect(store.getSnapshot().every((t) => !t.open)).toBe(true);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('a toast re-opened under the same id before removal survives the old timer', () => {
    const store = createToastStore();
    const { id } = store.add({ id: 'x', title: 'one' });
    store.remove(id);
    store.add({ id: 'x', title: 'two' });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(store.getSnapshot()).toMatchObject([{ id: 'x', title: 'two', open: true }]);
  });

  it('max 0 shows none, and listeners hear every change', () => {
    const none = createToastStore({ max: 0 });
    none.add({ title: 'hidden' });
    expect(none.getSnapshot()).toEqual([]);
    const store = createToastStore();
    const listener = vi.fn();
    const stop = store.subscribe(listener);
    const { id } = store.add({ title: 'x' });
    store.remove(id);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    stop();
    store.add({ title: 'y' });
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
