import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describeAssetStore } from './asset-store.contract.js';
import { createFileAssetStore } from './file-asset-store.js';

let root = '';
// The stores' clock: real time moved on by the contract, so expiry needs no waiting.
let skew = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'asset-store-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeAssetStore(
  'file',
  async (scope, limits) => createFileAssetStore({ dir: join(root, scope), ...limits, now: () => Date.now() + skew }),
  async (ms) => {
    skew += ms;
  },
);
