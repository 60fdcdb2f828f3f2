/**
 * The contract every SessionStore passes. Each implementation's test file calls
 * `describeSessionStore` with a factory; stores of one scope share state (two renderers on one
 * Redis, or one renderer before and after a restart), stores of different scopes see nothing.
 */
import { describe, expect, it } from 'vitest';
import type { SessionStore } from './types.js';
import { scopedStores } from '../../../../../tests/support/store-contract.js';

const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `elapse` lets time pass for the stores `create` makes: a real wait, or a test clock moved on. */
export function describeSessionStore(
  name: string,
  create: (scope: string) => Promise<SessionStore>,
  shares = true,
  elapse: (ms: number) => Promise<void> = sleep,
): void {
  describe(`SessionStore contract: ${name}`, () => {
    const fresh = scopedStores(create);

    it('creates a session with an opaque random id and reads it back', async () => {
      const store = await fresh();
      const before = Date.now();
      const session = await store.create('user-1', HOUR);
      expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(session.id).not.toContain('user-1');
      expect(session.userId).toBe('user-1');
      expect(session.expiresAt - session.createdAt).toBe(HOUR);
      expect(session.createdAt).toBeGreaterThanOrEqual(before);
      expect(await store.get(session.id)).toEqual(session);
      expect(await store.ping()).toBe(true);
    });

    it('gives every session a new id, even for the same user', async () => {
      const store = await fresh();
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) ids.add((await store.create('same', HOUR)).id);
      expect(ids.size).toBe(20);
    });

    it('forgets a destroyed session and keeps the others', async () => {
      const store = await fresh();
      const a = await store.create('a', HOUR);
      const b = await store.create('b', HOUR);
      await store.destroy(a.id);
      expect(await store.get(a.id)).toBeNull();
      expect(await store.get(b.id)).not.toBeNull();
      await expect(store.destroy(a.id)).resolves.toBeUndefined();
    });

    it('answers null once a session has expired', async () => {
      const store = await fresh();
      const session = await store.create('brief', 80);
      expect(await store.get(session.id)).not.toBeNull();
      await elapse(150);
      expect(await store.get(session.id)).toBeNull();
    });

    it('answers null for unknown and malformed ids', async () => {
      const store = await fresh();
      expect(await store.get('A'.repeat(43))).toBeNull();
      expect(await store.get('')).toBeNull();
      expect(await store.get('../../etc/passwd')).toBeNull();
      expect(await store.get('x'.repeat(10_000))).toBeNull();
      await expect(store.destroy('not an id')).resolves.toBeUndefined();
    });

    it('keeps scopes apart', async () => {
      const one = await fresh();
      const other = await fresh();
      const session = await one.create('u', HOUR);
      expect(await other.get(session.id)).toBeNull();
    });

    it.runIf(shares)('is seen by another store of the same scope (a restarted renderer)', async () => {
      const before = await fresh('shared');
      const session = await before.create('u', HOUR);
      await before.close();
      const after = await fresh('shared');
      expect(await after.get(session.id)).toEqual(session);
    });
  });
}
