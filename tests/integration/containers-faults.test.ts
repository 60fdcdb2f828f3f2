/**
 * What only containers can show (issue 23), on one docker-compose project for the whole file:
 * a process killed with SIGKILL and brought back by the restart policy, Redis paused and restarted
 * (empty, or with its append-only file: issue 26), `--scale renderer=3` with one replica killed,
 * and a rollout to a renderer image of a new build with a Chromium tab of the old one open.
 * Where no container engine answers, the file skips with one line; where one does, it runs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { launchChromium } from '../support/chromium.js';
import {
  containerRuntimeReason,
  docker,
  startContainerStack,
  waitHealthy,
  type ComposeService,
  type ContainerStack,
} from '../support/container-stack.js';
import { makeSecondBuild } from '../support/second-build.js';
import { openTab } from '../e2e/runtime-browser.js';
import { Visitor } from './site-support.js';

const runtimeReason = await containerRuntimeReason();
if (runtimeReason) console.warn(`skipping the container fault suite: ${runtimeReason}`);

const HEAL_MS = 10_000;
let stack: ContainerStack;

interface Ready {
  status: string;
  checks: Record<string, string>;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${path}`, { headers, signal: AbortSignal.timeout(5000) });
async function status(path: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    const response = await get(path, headers);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
async function readiness(): Promise<Ready | null> {
  try {
    return (await (await get('/readyz')).json()) as Ready;
  } catch {
    return null;
  }
}
const latestBuild = async () => ((await (await get('/_nuxt/builds/latest.json')).json()) as { id: string }).id;
const inspect = async (format: string, id: string) => (await docker(['inspect', '-f', format, id])).trim();
const html = { accept: 'text/html' };

let width = 40;
/** The gateway sees the service, and a request only it can answer gets its answer (a page never cached). */
const serving: Record<ComposeService, () => Promise<boolean>> = {
  gateway: async () => (await status('/healthz')) === 200,
  renderer: async () => (await status('/login', html)) === 200,
  image: async () =>
    (await readiness())?.checks.image === 'ok' &&
    (await status(`/_ipx/w_${++width}&f_webp/images/categories/git.jpg`, { accept: 'image/webp' })) === 200,
  icons: async () => (await readiness())?.checks.icons === 'ok' && (await status('/api/_nuxt_icon/lucide.json?icons=sun')) === 200,
  redis: async () => (await stack.redisCli(['ping']).catch(() => '')).trim() === 'PONG' && (await readiness())?.checks.store === 'ok',
};

describe.runIf(!runtimeReason)('the compose stack under faults', () => {
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    const started = Date.now();
    stack = await startContainerStack();
    console.log(`containers: compose up to healthy in ${Date.now() - started} ms (images built before)`);
  }, 600_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await stack?.stop();
  });

  it.each(['renderer', 'image', 'icons', 'gateway', 'redis'] as const)(
    'serves again within 10 s after the %s process is killed with SIGKILL (the restart policy)',
    async (service) => {
      await waitFor(serving[service], 10_000, 100);
      const [id] = await stack.containers(service);
      const restarts = Number(await inspect('{{.RestartCount}}', id!));
      process.kill(await stack.pid(id!), 'SIGKILL');
      const killed = Date.now();
      await waitFor(async () => Number(await inspect('{{.RestartCount}}', id!)) > restarts && (await serving[service]()), HEAL_MS, 100);
      console.log(`containers: ${service} killed → serving in ${Date.now() - killed} ms`);
      await waitHealthy(id!);
    },
    30_000,
  );

  it('keeps serving pages with Redis paused 15 s, /readyz degraded, and is ready again after', async () => {
    await waitFor(async () => (await readiness())?.status === 'ready', 20_000, 200);
    const [redis] = await stack.containers('redis');
    await docker(['pause', redis!]);
    const paused = Date.now();
    try {
      await waitFor(async () => (await readiness())?.status === 'degraded', 10_000, 200);
      expect((await get('/readyz')).status).toBe(200);
      while (Date.now() - paused < 15_000) {
        for (const path of ['/', '/category/git', '/about']) expect(await status(path, html), path).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    } finally {
      await docker(['unpause', redis!]);
    }
    await waitFor(async () => (await readiness())?.status === 'ready', 15_000, 200);
  }, 60_000);

  it('keeps a user added with the users CLI, and their saved recipe, across `docker-compose restart redis`', async () => {
    const user = { email: 'durable-cook@cookbook.test', name: 'Durable Cook', password: 'kept on the volume' };
    const cli = ['node', 'apps/cookbook/dist/server/users-cli.js', 'add', user.email, user.name];
    const added = await stack.exec('renderer', cli, `${user.password}\n`);
    expect(added.code, added.out).toBe(0);
    const visitor = new Visitor(stack.url);
    expect((await visitor.login(user.email, user.password)).status).toBe(200);
    expect((await visitor.fetch('/api/saved/undo-last-commit', { method: 'POST' })).status).toBe(201);

    await stack.compose(['restart', 'redis']);
    await waitHealthy((await stack.containers('redis'))[0]!);

    const again = new Visitor(stack.url);
    await waitFor(async () => (await again.login(user.email, user.password)).status === 200, 15_000, 250);
    const home = await again.html('/');
    expect(home).toContain(user.name);
    expect(home).toMatch(/aria-label="Your saved recipes"[\s\S]*href="\/recipes\/undo-last-commit"/);
  }, 60_000);

  it('publishes the current build again within 10 s of Redis coming back empty, restarting nothing else', async () => {
    const build = await latestBuild();
    const others = await Promise.all(
      (['gateway', 'renderer', 'image', 'icons'] as const).map(async (name) => (await stack.containers(name))[0]!),
    );
    const startedAt = async () => Promise.all(others.map((id) => inspect('{{.State.StartedAt}}', id)));
    const before = await startedAt();
    // Empty for real: stopped, its append-only file deleted, started again.
    await stack.compose(['stop', 'redis']);
    await docker([
      'run',
      '--rm',
      '-v',
      `${stack.project}_redis-data:/data`,
      '--entrypoint',
      'sh',
      'redis:7-alpine',
      '-c',
      'rm -rf /data/*',
    ]);
    await stack.compose(['start', 'redis']);
    const back = Date.now();
    await waitFor(async () => (await stack.redisCli(['dbsize']).catch(() => '')).trim() !== '', 10_000, 100);
    await waitFor(async () => (await stack.redisCli(['get', 'cookbook:build:current'])).includes(build), HEAL_MS, 100);
    console.log(`containers: Redis back empty → build published again in ${Date.now() - back} ms`);
    expect(await latestBuild()).toBe(build);
    expect(await startedAt()).toEqual(before);
  }, 60_000);

  describe('three renderers', () => {
    beforeAll(async () => {
      await stack.compose(['up', '-d', '--no-deps', '--no-recreate', '--scale', 'renderer=3', 'renderer']);
      const renderers = await stack.containers('renderer');
      expect(renderers).toHaveLength(3);
      await Promise.all(renderers.map((id) => waitHealthy(id)));
    }, 120_000);

    it('sends pages to all three (each announces its own address)', async () => {
      const renderers = await stack.containers('renderer');
      const ids = Array.from({ length: 30 }, (_, i) => `scale-${Date.now()}-${i}`);
      // Announcements are read every few seconds: wait until every replica has had a request.
      await waitFor(
        async () => {
          for (const id of ids) await (await get('/login', { ...html, 'x-request-id': id })).arrayBuffer();
          const logs = await Promise.all(renderers.map((renderer) => docker(['logs', renderer]).catch(() => '')));
          return logs.every((log) => ids.some((id) => log.includes(`"reqId":"${id}"`)));
        },
        20_000,
        500,
      );
    }, 30_000);

    it('answers every visitor while one of the three is killed with SIGKILL', async () => {
      const [, victim] = await stack.containers('renderer');
      const failures: string[] = [];
      let requests = 0;
      let stop = false;
      const visitors = Array.from({ length: 4 }, async () => {
        while (!stop) {
          const code = await status('/login', html);
          requests++;
          if (code !== 200) failures.push(String(code));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      process.kill(await stack.pid(victim!), 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 8000));
      stop = true;
      await Promise.all(visitors);
      expect(requests).toBeGreaterThan(20);
      expect(failures).toEqual([]);
      await waitHealthy(victim!);
    }, 60_000);
  });

  it('moves an open tab of the old build to a renderer image of a new build with nothing failing', async () => {
    const buildA = await latestBuild();
    // Build B: the renderer image's own dist/ with every client file renamed and a new build id.
    const dir = await mkdtemp(join(tmpdir(), 'containers-rollout-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const created = (await docker(['create', 'cookbook-renderer:latest'])).trim();
    await docker(['cp', `${created}:/app/dist`, join(dir, 'a')]);
    await docker(['rm', created]);
    const b = await makeSecondBuild(join(dir, 'b'), `containers-b-${Date.now()}`, join(dir, 'a'));
    await mkdir(join(dir, 'b'), { recursive: true });
    await writeFile(
      join(dir, 'b', 'Dockerfile'),
      [
        'FROM cookbook-renderer:latest',
        'USER root',
        'RUN rm -rf /app/dist/client',
        'COPY client /app/dist/client',
        'COPY build/meta.json /app/dist/build/meta.json',
        'USER node',
      ].join('\n'),
    );
    const imageB = `cookbook-renderer:${stack.project}-b`;
    await docker(['build', '-q', '-t', imageB, join(dir, 'b')]);
    cleanups.push(() => docker(['rmi', '-f', imageB]));

    // Launched here, not for the file: the other tests need no browser.
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    // A save-data visitor: chunks and payloads only on navigation, none preloaded from A before the stop.
    const { page: tab } = await openTab(browser, { connection: { saveData: true, effectiveType: '4g' } });
    const failed: string[] = [];
    const bad: string[] = [];
    const documents: string[] = [];
    tab.on('requestfailed', (request) => {
      if (request.resourceType() === 'document' && (request.failure()?.errorText ?? '').includes('ERR_ABORTED')) return;
      failed.push(`${request.resourceType()} ${request.url()} ${request.failure()?.errorText}`);
    });
    tab.on('response', (response) => {
      if (response.status() >= 400) bad.push(`${response.status()} ${response.url()}`);
    });
    const requested: string[] = [];
    tab.on('request', (request) => {
      if (!request.url().includes('/_nuxt/')) requested.push(new URL(request.url()).pathname + new URL(request.url()).search);
      if (request.isNavigationRequest() && request.frame() === tab.mainFrame()) documents.push(new URL(request.url()).pathname);
    });
    await tab.goto(`${stack.url}/`);
    await tab.waitForSelector('html[data-hydrated]', { timeout: 15_000 });
    expect(await buildIdOf(tab)).toBe(buildA);
    await tab.click('a[href="/category/git"]');
    await tab.waitForFunction(() => document.title.startsWith('Git'));

    // B starts beside A, announces itself and makes B current.
    const nameB = `${stack.project}-renderer-b`;
    await docker([
      'run', '-d', '--name', nameB, '--network', stack.network,
      '-e', 'NODE_ENV=production', '-e', 'HOST=0.0.0.0', '-e', 'PORT=3001', '-e', 'REDIS_URL=redis://redis:6379',
      '-e', `RENDERER_ADVERTISE_URL=http://${nameB}:3001`, imageB,
    ]); // prettier-ignore
    cleanups.push(() => docker(['rm', '-f', nameB]));
    await waitFor(async () => (await latestBuild()) === b.id, 60_000, 250);

    // Every renderer of A stops (SIGTERM: withdraw, drain, exit); the tab navigates on.
    await stack.compose(['stop', 'renderer']);
    // A page the tab has never loaded: A's chunk from the shared store, A's payload answered by B,
    // so the navigation becomes one full load of the target on B.
    await tab.click('header a[href="/about"]');
    await waitFor(async () => (await buildIdOf(tab).catch(() => '')) === b.id, 20_000, 100).catch(async () => {
      const state = { requested, documents, failed, bad, url: tab.url(), build: await buildIdOf(tab).catch(() => '?'), a: buildA, b: b.id };
      throw new Error(`the tab did not move to build B within 20 s: ${JSON.stringify(state)}`);
    });
    await tab.waitForSelector('html[data-hydrated]', { timeout: 15_000 });
    expect(failed).toEqual([]);
    expect(bad).toEqual([]);
    expect(documents).toEqual(['/', '/about']);
  }, 180_000);
});

const buildIdOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(document.getElementById('__APP_CONFIG__')!.textContent!) as { buildId: string }).buildId);
