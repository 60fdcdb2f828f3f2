import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBuildId } from '../lib/build-store/types.js';
import { normalizeRouteRules } from '../lib/route-rules.js';
import { computeBuildId, createBuildMeta } from './write-build-meta.js';

describe('the build meta', () => {
  const dirs: string[] = [];
  afterEach(async () => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

  async function buildOutput(manifest: string, content: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'build-meta-'));
    dirs.push(dir);
    await mkdir(join(dir, 'client', '.vite'), { recursive: true });
    await mkdir(join(dir, 'content'), { recursive: true });
    await writeFile(join(dir, 'client', '.vite', 'manifest.json'), manifest);
    await writeFile(join(dir, 'content', 'content.json'), content);
    return dir;
  }

  it('has the same id for the same inputs in two places, a different one when any input changes', async () => {
    const rules = normalizeRouteRules({ '/a': { redirect: '/b' } });
    const one = computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), rules);
    const two = computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), rules);
    expect(one).toBe(two);
    expect(isBuildId(one)).toBe(true);
    expect(computeBuildId(await buildOutput('{"main":2}', '{"c":1}'), rules)).not.toBe(one);
    expect(computeBuildId(await buildOutput('{"main":1}', '{"c":2}'), rules)).not.toBe(one);
    expect(computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), normalizeRouteRules({ '/a': { redirect: '/c' } }))).not.toBe(one);
  });

  it('compiles the site rules into { id, timestamp, matcher, prerendered, sessionCookie }', async () => {
    const meta = createBuildMeta(await buildOutput('{}', '{}'), 1234);
    expect(meta).toMatchObject({ timestamp: 1234, prerendered: [], sessionCookie: 'cookbook_session' });
    expect(meta.matcher['/home']).toEqual({ redirect: { to: '/', statusCode: 301 } });
    expect(Object.keys(meta.matcher)).toEqual([
      '/home',
      '/categories/**',
      '/source',
      '/_nuxt/**',
      '/',
      '/category/**',
      '/login',
      '/about',
      '/saved',
    ]);
  });
});
