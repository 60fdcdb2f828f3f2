/**
 * The contract every BuildStore passes. Each implementation's test file calls
 * `describeBuildStore` with a factory that gives a fresh, isolated store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { keepPublished, republishIfLost } from './keep-published.js';
import type { BuildMeta, BuildStore } from './types.js';
import { scopedStores } from '../../../../tests/support/store-contract.js';
import { waitFor } from '../../../../tests/support/wait-for.js';

const meta = (id: string, timestamp = Date.now()): BuildMeta => ({
  id,
  timestamp,
  matcher: { '/home': { redirect: { to: '/', statusCode: 301 } } },
  prerendered: [],
  sessionCookie: 'app_session',
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
  /** Lets time pass for the stores `create` makes: a real wait, or a test clock moved on. */
  elapse: (ms: number) => Promise<void> = sleep,
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

    it('a fresh build of an old id (a later timestamp) is a new publication and becomes current', async () => {
      const store = await fresh();
      expect(await store.publish(meta('one', 1))).toBe('current');
      expect(await store.publish(meta('two', 2))).toBe('current');
      expect(await store.publish(meta('one', 3))).toBe('current');
      expect(await store.current()).toEqual({ id: 'one', timestamp: 3 });
      expect(await store.meta('two')).not.toBeNull();
      expect((await store.builds()).map((build) => build.id)).toEqual(['one', 'two']);
    });

    it('never makes an older build current again when its renderer restarts, and still keeps its meta', async () => {
      const one = await fresh('restart');
      const other = await fresh('restart');
      await one.publish(meta('old', 1));
      await other.publish(meta('new', 2));
      expect(await one.publish(meta('old', 1))).toBe('superseded');
      expect(await other.current()).toEqual({ id: 'new', timestamp: 2 });
      expect(await other.meta('old')).toEqual(meta('old', 1));
      // The same build restarting is still current; the same id built earlier than known is not newer.
      expect(await other.publish(meta('new', 2))).toBe('current');
      expect(await one.publish(meta('new', 1))).toBe('current');
      expect(await one.publish(meta('old', 0))).toBe('superseded');
      expect(await one.builds()).toEqual([
        { id: 'new', timestamp: 2, kept: true },
        { id: 'old', timestamp: 1, kept: true },
      ]);
    });

    it('rolls back only on purpose: a promoted build stays current when the newer one restarts', async () => {
      const store = await fresh();
      await store.publish(meta('old', 1));
      await store.publish(meta('new', 2));
      expect(await store.promote('old')).toBe(true);
      expect(await store.current()).toEqual({ id: 'old', timestamp: 1 });
      expect(await store.publish(meta('new', 2))).toBe('superseded');
      expect(await store.current()).toEqual({ id: 'old', timestamp: 1 });
      expect(await store.publish(meta('newest', 3))).toBe('current');
      expect(await store.promote('never-published')).toBe(false);
      expect(await store.promote('../x')).toBe(false);
      expect(await store.current()).toEqual({ id: 'newest', timestamp: 3 });
    });

    it('a superseded renderer never republishes its build, even into a store that was emptied', async () => {
      const store = await fresh('superseded');
      const outcomes: string[] = [];
      let checks = 0;
      const stop = keepPublished(store, meta('old', 1), {
        intervalMs: 20,
        onPublished: (outcome) => outcomes.push(outcome),
        onRepublished: () => outcomes.push('republished'),
        onSuperseded: (id) => outcomes.push(`superseded by ${id}`),
        onError: () => undefined,
        onChecked: () => checks++,
      });
      try {
        await waitFor(() => outcomes.includes('current'), 2000);
        await store.publish(meta('new', 2));
        await waitFor(() => outcomes.includes('superseded by new'), 2000);
        await lose('superseded');
        const seen = checks;
        await waitFor(() => checks >= seen + 3, 2000);
        expect(await store.current()).toBeNull();
        expect(outcomes).toEqual(['current', 'superseded by new']);
      } finally {
        stop();
      }
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
      await elapse(450);
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
