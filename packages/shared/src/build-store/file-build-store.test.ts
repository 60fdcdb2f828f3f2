import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { describeBuildStore } from './build-store.contract.js';
import { createFileBuildStore } from './file-build-store.js';

let root = '';
// The stores' clock: real time moved on by the contract, so expiry needs no waiting.
let skew = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'build-store-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeBuildStore(
  'file',
  async (scope) => createFileBuildStore({ dir: join(root, scope), pollIntervalMs: 100, now: () => Date.now() + skew }),
  (scope) => rm(join(root, scope), { recursive: true, force: true }),
  async (ms) => {
    skew += ms;
  },
);
