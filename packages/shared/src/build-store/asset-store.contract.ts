/**
 * The contract every AssetStore passes. `create(scope, limits)` gives a store; stores of one scope
 * share state (two gateways and a renderer on one Redis), different scopes see nothing of each other.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { scopedStores } from '../../../../tests/support/store-contract.js';
import type { AssetFile, AssetStore, AssetStoreLimits } from './asset-types.js';

const file = (name: string, withTwins = true): AssetFile => ({
  name,
  identity: Buffer.from(`plain ${name}`),
  ...(withTwins ? { br: Buffer.from(`br ${name}`), gzip: Buffer.from(`gz ${name}`) } : {}),
});
const text = (asset: { encoding: string; body: Buffer } | null) => (asset ? `${asset.encoding}: ${asset.body.toString()}` : null);

/** `elapse` lets time pass for the stores `create` makes: a real wait, or a test clock moved on. */
export function describeAssetStore(
  name: string,
  create: (scope: string, limits: AssetStoreLimits) => Promise<AssetStore>,
  elapse: (ms: number) => Promise<void> = sleep,
): void {
  describe(`AssetStore contract: ${name}`, () => {
    let scopes = 0;
    const open = scopedStores((scope) => {
      const [id, keep, ttlMs] = scope.split('/');
      return create(id!, { keep: Number(keep), ttlMs: Number(ttlMs) });
    });
    const fresh = (limits: Partial<AssetStoreLimits> = {}, scope = `a${++scopes}`) =>
      open(`${scope}/${limits.keep ?? 3}/${limits.ttlMs ?? 60_000}`);

    it('serves a published file in the first encoding asked for that it holds', async () => {
      const writer = await fresh({}, 'shared');
      const reader = await fresh({}, 'shared');
      expect(await reader.has('build-a')).toBe(false);
      await writer.publish('build-a', [file('entry-Abc123.js'), file('tiny-Xyz.js', false)]);
      expect(await reader.has('build-a')).toBe(true);
      expect(text(await reader.get('entry-Abc123.js', ['br', 'gzip', 'identity']))).toBe('br: br entry-Abc123.js');
      expect(text(await reader.get('entry-Abc123.js', ['gzip', 'identity']))).toBe('gzip: gz entry-Abc123.js');
      expect(text(await reader.get('entry-Abc123.js', ['identity']))).toBe('identity: plain entry-Abc123.js');
      expect(text(await reader.get('tiny-Xyz.js', ['br', 'gzip', 'identity']))).toBe('identity: plain tiny-Xyz.js');
      expect(await reader.get('tiny-Xyz.js', ['br'])).toBeNull();
      expect(await reader.builds()).toEqual(['build-a']);
    });

    it('answers null for unknown and malformed names and refuses to store one', async () => {
      const store = await fresh();
      await store.publish('b', [file('ok.js')]);
      expect(await store.get('missing.js', ['identity'])).toBeNull();
      for (const bad of ['../ok.js', 'a/ok.js', '', '.hidden', 'ok..js']) expect(await store.get(bad, ['identity'])).toBeNull();
      await expect(store.publish('b', [file('../evil.js')])).rejects.toThrow(/invalid asset name/);
      await expect(store.publish('../b', [file('ok.js')])).rejects.toThrow(/invalid build id/);
    });

    it('keeps the files of the last K builds; a file an older build shares with a kept one stays', async () => {
      const store = await fresh({ keep: 2 });
      await store.publish('b1', [file('one-1.js'), file('shared-0.css')]);
      await store.publish('b2', [file('two-2.js'), file('shared-0.css')]);
      await store.publish('b3', [file('three-3.js'), file('shared-0.css')]);
      expect(await store.builds()).toEqual(['b3', 'b2']);
      expect(await store.has('b1')).toBe(false);
      expect(await store.get('one-1.js', ['identity'])).toBeNull();
      for (const kept of ['two-2.js', 'three-3.js', 'shared-0.css']) expect(await store.get(kept, ['identity'])).not.toBeNull();
      // Publishing an older build again (a rollback) makes it the newest.
      await store.publish('b2', [file('two-2.js'), file('shared-0.css')]);
      expect(await store.builds()).toEqual(['b2', 'b3']);
    });

    it('forgets files after the TTL unless the build touches them', async () => {
      const store = await fresh({ ttlMs: 700 });
      await store.publish('old', [file('old-1.js')]);
      await store.publish('live', [file('live-1.js')]);
      await elapse(450);
      await store.touch('live');
      await elapse(450);
      expect(await store.get('old-1.js', ['identity'])).toBeNull();
      expect(await store.has('old')).toBe(false);
      expect(await store.get('live-1.js', ['identity'])).not.toBeNull();
      expect(await store.has('live')).toBe(true);
    });
  });
}
