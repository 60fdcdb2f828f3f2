import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSiteDefaults, withSiteDefaults } from './site-defaults.js';

const dir = await mkdtemp(join(tmpdir(), 'site-defaults-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the built site's defaults", () => {
  it('fill what the environment leaves unset or empty, never what it sets', () => {
    const defaults = { REDIS_PREFIX: 'shop:', ICONS_PRELOAD: 'mdi' };
    expect(withSiteDefaults({ REDIS_PREFIX: 'mine:', ICONS_PRELOAD: '' }, defaults)).toEqual({
      REDIS_PREFIX: 'mine:',
      ICONS_PRELOAD: 'mdi',
    });
  });

  it('are none before a build, and a malformed site.json stops with its path', async () => {
    expect(readSiteDefaults(join(dir, 'missing.json'))).toEqual({});
    const file = join(dir, 'site.json');
    await writeFile(file, JSON.stringify({ name: 'x', defaults: { REDIS_PREFIX: 1 } }));
    expect(() => readSiteDefaults(file)).toThrow(`${file}: defaults must map variable names to strings`);
    await writeFile(file, JSON.stringify({ name: 'x', defaults: { REDIS_PREFIX: 'shop:' } }));
    expect(readSiteDefaults(file)).toEqual({ REDIS_PREFIX: 'shop:' });
  });
});
