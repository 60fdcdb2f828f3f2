import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBuildMeta } from './build-info.js';

describe('readBuildMeta', () => {
  const dirs: string[] = [];
  afterEach(async () => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

  async function metaFile(meta: unknown): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'build-info-'));
    dirs.push(dir);
    await writeFile(join(dir, 'meta.json'), JSON.stringify(meta));
    return join(dir, 'meta.json');
  }

  const base = { id: 'abc123', timestamp: 1, matcher: {}, prerendered: [] };

  it('reads a meta with a session cookie, and one without (a site without sessions)', async () => {
    expect(await readBuildMeta(await metaFile({ ...base, sessionCookie: 'cookbook_session' }))).toMatchObject({
      sessionCookie: 'cookbook_session',
    });
    expect((await readBuildMeta(await metaFile(base))).sessionCookie).toBeUndefined();
  });

  it('refuses a session cookie that is no cookie name', async () => {
    for (const sessionCookie of [42, '', 'a b', 'a;b', 'a=b']) {
      await expect(readBuildMeta(await metaFile({ ...base, sessionCookie }))).rejects.toThrow(/malformed/);
    }
  });
});
