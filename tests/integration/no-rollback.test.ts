/**
 * No rollback by restart (issue 23): once build B has been published after A, a renderer of A that
 * crashes and restarts (as the kubelet restarts a container in its pod) never makes A current
 * again, yet still serves A's own tabs: A's meta and client files stay available through the
 * gateway, and payloads naming A reach it. `npm run builds -- promote A` rolls back on purpose,
 * and a restarted renderer of B then leaves A current. Local processes on Redis, as in production.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import { projectRoot } from '@tern/shared/config/paths';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { findFreeBasePort } from '@tern/cli/ports';
import { startProcess, type ServiceProcess } from '../support/processes.js';
import { makeSecondBuild, type SecondBuild } from '../support/second-build.js';

const available = await redisAvailable();
const dist = join(projectRoot, 'dist');
const run = promisify(execFile);

describe.runIf(available)('a restarted renderer of an older build', () => {
  const prefix = `no-rollback:${process.pid}:`;
  let dir = '';
  let buildA = '';
  let buildB: SecondBuild;
  let common: NodeJS.ProcessEnv = {};
  let ports: number[] = [];
  let gateway: ServiceProcess;
  const running = new Map<string, ServiceProcess>();

  const rendererEnv = (port: number, files: { clientDir: string; metaFile: string }): NodeJS.ProcessEnv => ({
    ...common,
    CLIENT_DIR: files.clientDir,
    BUILD_META_FILE: files.metaFile,
    SSR_ENTRY: join(dist, 'ssr', 'entry-server.js'),
    CONTENT_FILE: join(dist, 'content', 'content.json'),
    RENDERER_ADVERTISE_URL: `http://127.0.0.1:${port}`,
    ANNOUNCE_INTERVAL_MS: '500',
    DRAIN_DELAY_MS: '100',
  });
  const filesA = () => ({ clientDir: join(dist, 'client'), metaFile: join(dist, 'build', 'meta.json') });
  const start = async (name: 'a' | 'b') => {
    const port = name === 'a' ? ports[1]! : ports[2]!;
    const child = await startProcess(`renderer-${name}`, 'renderer', port, rendererEnv(port, name === 'a' ? filesA() : buildB));
    running.set(name, child);
    return child;
  };
  const latest = async () => ((await (await fetch(`${gateway.url}/_nuxt/builds/latest.json`)).json()) as { id: string }).id;
  const builds = (...args: string[]) =>
    run(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'builds-cli.js'), ...args], { env: { ...common }, encoding: 'utf8' });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'no-rollback-'));
    buildA = (JSON.parse(await readFile(join(dist, 'build', 'meta.json'), 'utf8')) as { id: string }).id;
    buildB = await makeSecondBuild(join(dir, 'b'), 'no-rollback-build-b');
    const base = await findFreeBasePort(4);
    ports = [0, 1, 2, 3].map((i) => base + i);
    common = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      BUILD_STORE_DIR: join(dir, 'build-store'),
      CACHE_DIR: join(dir, 'render-cache'),
      BUILD_POLL_MS: '200',
      RENDERER_URL: `http://127.0.0.1:${ports[1]}`,
      IMAGE_URL: `http://127.0.0.1:${ports[3]}`,
      ICONS_URL: `http://127.0.0.1:${ports[3]}`,
      // The gateway's own copy of client files is B's: A's must come from the store.
      CLIENT_DIR: buildB.clientDir,
    };
    await start('a');
    gateway = await startProcess('gateway', 'gateway', ports[0]!, common);
    await waitFor(async () => (await latest()) === buildA, 10_000, 100);
    await start('b');
    await waitFor(async () => (await latest()) === buildB.id, 10_000, 100);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([...running.values(), gateway].filter(Boolean).map((p) => p.stop()));
    await deleteKeys(TEST_REDIS_URL, prefix).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('never makes its build current again, and still serves its own tabs', async () => {
    await running.get('a')!.stop();
    const restarted = await start('a');
    // The store answered its publish with "superseded": B stays current.
    await waitFor(() => restarted.logs.some((line) => line.includes('not made current')), 10_000, 50);
    expect(await latest()).toBe(buildB.id);
    // A's tabs: its meta, a client file only A has (the gateway's disk holds B's), its payloads.
    expect((await fetch(`${gateway.url}/_nuxt/builds/meta/${buildA}.json`)).status).toBe(200);
    const home = await (await fetch(`${restarted.url}/`, { headers: { accept: 'text/html' } })).text();
    const fileOfA = /\/_nuxt\/([\w.-]+\.js)"/.exec(home)![1]!;
    expect((await fetch(`${gateway.url}/_nuxt/${fileOfA}`)).status).toBe(200);
    await waitFor(
      async () => {
        const payload = await fetch(`${gateway.url}/category/git/_payload.json?${buildA}`);
        await payload.arrayBuffer();
        return payload.status === 200 && payload.headers.get(BUILD_ID_HEADER) === buildA;
      },
      10_000,
      100,
    );
    const page = await fetch(`${gateway.url}/category/git`, { headers: { accept: 'text/html' } });
    await page.arrayBuffer();
    expect(page.headers.get(BUILD_ID_HEADER)).toBe(buildB.id);
  }, 60_000);

  it('rolls back only on purpose, with npm run builds -- promote, and stays rolled back when B restarts', async () => {
    const listed = (await builds('list')).stdout;
    expect(listed.split('\n')[0]).toMatch(new RegExp(`^${buildB.id} .*\\(current\\)`));
    expect(listed).toContain(buildA);
    expect((await builds('promote', buildA)).stdout).toContain(`build ${buildA} is current`);
    await waitFor(async () => (await latest()) === buildA, 10_000, 100);
    await running.get('b')!.stop();
    const restartedB = await start('b');
    await waitFor(() => restartedB.logs.some((line) => line.includes('not made current')), 10_000, 50);
    expect(await latest()).toBe(buildA);
    await expect(builds('promote', 'never-published')).rejects.toMatchObject({ code: 1 });
  }, 60_000);
});
