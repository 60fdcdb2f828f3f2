/** What the contract suites of every store interface share (build, session, user stores). */
import { afterEach } from 'vitest';

/**
 * Returns `fresh(scope?)`: a new store from `create`, closed after each test. Stores made with
 * the same scope share state (as two processes share one Redis or one folder); without a scope
 * each store gets one of its own.
 */
export function scopedStores<T extends { close(): Promise<void> }>(create: (scope: string) => Promise<T>): (scope?: string) => Promise<T> {
  const open: T[] = [];
  let scopes = 0;
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  return async (scope = `s${++scopes}`) => {
    const store = await create(scope);
    open.push(store);
    return store;
  };
}
