/** The image service's allocator environment under `npm start` (issue 13, item 4). */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JEMALLOC_CONF, JEMALLOC_PATH, MALLOC_MMAP_ENV, imageAllocatorEnv, jemallocEnv } from './allocator.js';
import { serviceEnv } from './services.js';

// Any existing file stands for an installed library where only presence is checked.
const present = join(import.meta.dirname, 'allocator.ts');
const absent = join(import.meta.dirname, 'no-such-libjemalloc.so.2');

describe('imageAllocatorEnv', () => {
  it('preloads jemalloc when it is installed', () => {
    expect(imageAllocatorEnv({}, present)).toEqual({ LD_PRELOAD: present, MALLOC_CONF: JEMALLOC_CONF });
  });

  it('falls back to a fixed glibc mmap threshold without jemalloc, or when declined', () => {
    expect(imageAllocatorEnv({}, absent)).toEqual(MALLOC_MMAP_ENV);
    expect(imageAllocatorEnv({ IMAGE_JEMALLOC: 'false' }, present)).toEqual(MALLOC_MMAP_ENV);
  });

  it("leaves the operator's settings alone", () => {
    expect(imageAllocatorEnv({ LD_PRELOAD: '/opt/other.so' }, present)).toEqual({});
    expect(imageAllocatorEnv({ MALLOC_CONF: 'narenas:1' }, present)).toEqual({ LD_PRELOAD: present });
    expect(imageAllocatorEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }, absent)).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072' });
  });

  it('is given to the image service and the renderer only', () => {
    const image = serviceEnv('image', 3000, { IMAGE_JEMALLOC: 'false' });
    expect(image.MALLOC_MMAP_THRESHOLD_).toBe('131072');
    expect(serviceEnv('renderer', 3000, { IMAGE_JEMALLOC: 'false' }).MALLOC_MMAP_THRESHOLD_).toBe('131072');
    expect(serviceEnv('icons', 3000, {}).LD_PRELOAD).toBeUndefined();
    expect(serviceEnv('gateway', 3000, {}).MALLOC_MMAP_THRESHOLD_).toBeUndefined();
    expect(serviceEnv('gateway', 3000, {}).LD_PRELOAD).toBeUndefined();
  });

  it.skipIf(!existsSync(JEMALLOC_PATH))('really loads jemalloc into a node process (libjemalloc2 installed here)', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], {
      env: { ...process.env, ...jemallocEnv() },
      stdio: 'ignore',
    });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      // The dynamic loader maps LD_PRELOAD libraries before node's main runs.
      let maps = '';
      for (let i = 0; i < 50 && !maps.includes('node'); i++) {
        maps = await readFile(`/proc/${child.pid}/maps`, 'utf8');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(maps).toContain('libjemalloc.so.2');
    } finally {
      child.kill();
    }
  });
});
