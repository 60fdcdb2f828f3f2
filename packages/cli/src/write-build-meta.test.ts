import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBuildId } from '@tern/shared/build-store/types';
import { normalizeRouteRules } from '@tern/shared/route-rules/route-rules';
import { routeRules } from 'cookbook/route-rules';
import { computeBuildId, createBuildMeta } from './write-build-meta.js';

/** The cookbook's one data file, relative to the build folder (apps/cookbook/src/site.ts). */
const DATA = ['content/content.json'];

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
    const one = computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), { matcher: rules, dataFiles: DATA });
    const two = computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), { matcher: rules, dataFiles: DATA });
    expect(one).toBe(two);
    expect(isBuildId(one)).toBe(true);
    expect(computeBuildId(await buildOutput('{"main":2}', '{"c":1}'), { matcher: rules, dataFiles: DATA })).not.toBe(one);
    expect(computeBuildId(await buildOutput('{"main":1}', '{"c":2}'), { matcher: rules, dataFiles: DATA })).not.toBe(one);
    const otherRules = normalizeRouteRules({ '/a': { redirect: '/c' } });
    expect(computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), { matcher: otherRules, dataFiles: DATA })).not.toBe(one);
    const withCookie = { matcher: rules, dataFiles: DATA, sessionCookie: 'sid' };
    expect(computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), withCookie)).not.toBe(one);
    // A site without data files: its content file is not an input.
    const noData = { matcher: rules, dataFiles: [] };
    expect(computeBuildId(await buildOutput('{"main":1}', '{"c":1}'), noData)).toBe(
      computeBuildId(await buildOutput('{"main":1}', '{"c":2}'), noData),
    );
  });

  it('compiles the site rules into { id, timestamp, matcher, prerendered }', async () => {
    const meta = createBuildMeta(await buildOutput('{}', '{}'), { routeRules, sessionCookie: 'cookbook_session', dataFiles: DATA }, 1234);
    expect(meta).toMatchObject({ timestamp: 1234, prerendered: [], sessionCookie: 'cookbook_session' });
    expect(meta.matcher['/home']).toEqual({ redirect: { to: '/', statusCode: 301 } });
    expect(Object.keys(meta.matcher)).toEqual([
      '/home',
      '/categories/**',
      '/source',
      '/_nuxt/**',
      '/',
      '/category/**',
      '/recipes/**',
      '/tags/**',
      '/search',
      '/login',
      '/about',
      '/saved',
    ]);
  });
});
