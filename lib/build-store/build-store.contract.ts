/**
 * The contract every BuildStore passes. Each implementation's test file calls
 * `describeBuildStore` with a factory that gives a fresh, isolated store.
 */
import { describe, expect, it } from 'vitest';
import { republishIfLost } from './keep-published.js';
import type { BuildMeta, BuildStore } from './types.js';
import { scopedStores } from '../store-contract.js';
import { waitFor } from '../testing.js';

const meta = (id: string, timestamp = Date.now()): BuildMeta => ({
  id,
  timestamp,
  matcher: { '/home': { redirect: { to: '/', statusCode: 301 } } },
  prerendered: [],
});

/**
 * `create(scope)` gives a store; stores of the same scope share state (as the renderer and the
 * gateway share one Redis or one folder), stores of different scopes see nothing of each other.
 */
export function describeBuildStore(
  name: string,
  create: (scope: string) => Promise<BuildStore>,
  /** Empties a scope behind the stores' backs, as a Redis restarted without data does. */
  lose: (scope: string) => Promise<void>,
): void {
  describe(`BuildStore contract: ${name}`, () => {
    const fresh = scopedStores(create);

    it('has no current build before the first publish', async () => {
      const store = await fresh();
      expect(await store.current()).toBeNull();
      expect(await store.ping()).toBe(true);
    });

    it('publishes a build and serves its meta', async () => {
      const store = await fresh();
      await store.publish(meta('build-a', 1000));
      expect(await store.current()).toEqual({ id: 'build-a', timestamp: 1000 });
      expect(await store.meta('build-a')).toEqual(meta('build-a', 1000));
    });

    it('keeps the metas of the last 10 builds and drops older ones', async () => {
      const store = await fresh();
      for (let i = 0; i < 12; i++) await store.publish(meta(`b${i}`, i));
      expect(await store.current()).toEqual({ id: 'b11', timestamp: 11 });
      expect(await store.meta('b2')).not.toBeNull();
      expect(await store.meta('b1')).toBeNull();
      expect(await store.meta('b0')).toBeNull();
    });

    it('republishing an old id makes it current again without duplicating history', async () => {
      const store = await fresh();
      await store.publish(meta('one', 1));
      await store.publish(meta('two', 2));
      await store.publish(meta('one', 3));
      expect(await store.current()).toEqual({ id: 'one', timestamp: 3 });
      expect(await store.meta('two')).not.toBeNull();
    });

    it('answers null for unknown and malformed ids and refuses to publish one', async () => {
      const store = await fresh();
      expect(await store.meta('nope')).toBeNull();
      expect(await store.meta('../../etc/passwd')).toBeNull();
      expect(await store.meta('')).toBeNull();
      await expect(store.publish(meta('../evil'))).rejects.toThrow(/invalid build id/);
    });

    it('publishes its build again when the store lost it, and leaves another current build alone', async () => {
      const store = await fresh('lost');
      await store.publish(meta('kept', 5));
      expect(await republishIfLost(store, meta('kept', 5))).toBe(false);
      await lose('lost');
      expect(await store.current()).toBeNull();
      expect(await republishIfLost(store, meta('kept', 5))).toBe(true);
      expect(await store.current()).toEqual({ id: 'kept', timestamp: 5 });
      expect(await store.meta('kept')).toEqual(meta('kept', 5));
      await store.publish(meta('newer', 6));
      expect(await republishIfLost(store, meta('kept', 5))).toBe(false);
      expect(await store.current()).toEqual({ id: 'newer', timestamp: 6 });
    });

    it('lists the renderers announced, per build, until they withdraw or their announcement expires', async () => {
      const one = await fresh('renderers');
      const two = await fresh('renderers');
      const a1 = { buildId: 'build-a', url: 'http://10.0.0.1:3001' };
      const a2 = { buildId: 'build-a', url: 'http://10.0.0.2:3001' };
      const b1 = { buildId: 'build-b', url: 'http://10.0.0.3:3001' };
      await one.announceRenderer(a1, 60_000);
      await one.announceRenderer(a2, 60_000);
      await two.announceRenderer(b1, 300);
      await two.announceRenderer(b1, 300); // a repeat replaces, never duplicates
      const sorted = (list: { url: string }[]) => [...list].sort((x, y) => x.url.localeCompare(y.url));
      expect(sorted(await two.renderers())).toEqual([a1, a2, b1]);
      await one.withdrawRenderer(a2);
      expect(sorted(await two.renderers())).toEqual([a1, b1]);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(await one.renderers()).toEqual([a1]);
      await expect(one.announceRenderer({ buildId: '../x', url: 'http://x' }, 1000)).rejects.toThrow(/invalid build id/);
    });

    it('tells a watcher about a new build within a second, not about the one it started with', async () => {
      const writer = await fresh('watch');
      await writer.publish(meta('first', 1));
      const reader = await fresh('watch');
      const seen: string[] = [];
      const stop = reader.watch((build) => seen.push(build.id));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await writer.publish(meta('second', 2));
      await waitFor(() => seen.includes('second'), 1500);
      expect(seen).toEqual(['second']);
      stop();
    });
  });
}
