/**
 * The renderer's presence in the shared store (server/build-presence.ts), over real file stores:
 * its client files published once (source maps left out, twins kept) and again when the store lost
 * them; its address announced on start and withdrawn on shutdown.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileAssetStore, createFileBuildStore, readClientAssets } from '@tern/shared/build-store';
import { waitFor } from '../../../tests/support/wait-for.js';
import { createBuildPresence } from './build-presence.js';

let dir = '';
let clientDir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'presence-'));
  clientDir = join(dir, 'client');
  await mkdir(join(clientDir, '.vite'), { recursive: true });
  await writeFile(join(clientDir, '.vite', 'manifest.json'), '{}');
  await writeFile(join(clientDir, 'entry-Ab1.js'), 'console.log(1)');
  await writeFile(join(clientDir, 'entry-Ab1.js.br'), 'br');
  await writeFile(join(clientDir, 'entry-Ab1.js.gz'), 'gz');
  await writeFile(join(clientDir, 'entry-Ab1.js.map'), '{"sources":[]}');
  await writeFile(join(clientDir, 'style-Cd2.css'), 'a{}');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('client files', () => {
  it('are read with their twins and without source maps or the Vite folder', async () => {
    const files = await readClientAssets(clientDir);
    expect(files.map((f) => [f.name, f.br?.toString(), f.gzip?.toString()])).toEqual([
      ['entry-Ab1.js', 'br', 'gz'],
      ['style-Cd2.css', undefined, undefined],
    ]);
  });
});

describe('build presence', () => {
  it('publishes the files once, again when the store lost them, and announces and withdraws the renderer', async () => {
    const assets = createFileAssetStore({ dir: join(dir, 'store', 'assets') });
    const store = createFileBuildStore({ dir: join(dir, 'store') });
    const presence = createBuildPresence({
      buildId: 'build-a',
      clientDir,
      assets,
      store,
      advertiseUrl: 'http://10.0.0.7:3001',
      intervalMs: 50,
      assetTtlMs: 60_000,
      log: pino({ level: 'silent' }),
    });
    expect(await presence.publishAssets()).toBe('published');
    expect(await presence.publishAssets()).toBe('present');
    expect((await assets.get('entry-Ab1.js', ['br']))?.body.toString()).toBe('br');
    expect(await assets.get('entry-Ab1.js.map', ['identity'])).toBeNull();

    await presence.start();
    expect(await store.renderers()).toEqual([{ buildId: 'build-a', url: 'http://10.0.0.7:3001' }]);
    await rm(join(dir, 'store', 'assets'), { recursive: true, force: true });
    await waitFor(() => assets.has('build-a'), 2000);
    await presence.withdraw();
    expect(await store.renderers()).toEqual([]);
    presence.stop();
    await store.close();
  });
});
