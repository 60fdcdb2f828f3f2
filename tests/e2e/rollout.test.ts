/**
 * A rolling deploy, locally (issue 14, docs/decisions/skew-protection.md): one Redis, two gateways,
 * two renderers of build A; Chromium tabs open on A keep navigating while two renderers of build B
 * start and both of A's stop. No chunk, stylesheet or payload may fail, no error page may show, and
 * each tab must move to B with exactly one full load, on a navigation.
 *
 * Build B is dist/ with every client file renamed (tests/support/second-build.ts), so none of A's
 * files exist in B's folder; the gateways have B's folder on disk, as a gateway of the new release
 * would: A's files can only come from the shared asset store once A's renderers are gone.
 */
import type { Browser, Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { findFreeBasePort } from '@tern/cli/ports';
import { startProcess, type ServiceProcess } from '../support/processes.js';
import { makeSecondBuild, type SecondBuild } from '../support/second-build.js';
import { clientNavigate, gotoHydrated, launchBrowser, markDocument, openTab, sameDocument, sleep, type Tab } from './runtime-browser.js';

const available = await redisAvailable();
const dist = join(projectRoot, 'dist');
const prefix = `test:rollout:${randomUUID()}:`;

interface WatchedTab extends Tab {
  /** Requests that failed on the network, with the reason (aborted ones included: a chunk must never be cut off). */
  failed: string[];
  /** Answers of 400 or more. */
  bad: string[];
  /** Paths under /_nuxt/ answered 200, in order, with the time. */
  assets: Array<{ path: string; at: number }>;
}

let dir = '';
let build: SecondBuild;
let buildA = '';
let browser: Browser | undefined;
const processes: ServiceProcess[] = [];
const tabs: WatchedTab[] = [];

async function watchedTab(options: Parameters<typeof openTab>[1]): Promise<WatchedTab> {
  const tab = await openTab(browser!, options);
  const watched: WatchedTab = { ...tab, failed: [], bad: [], assets: [] };
  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  tab.page.on('requestfailed', (request) => {
    // A document request cut off by the next full load is the browser's own doing, not a failed load.
    const failure = request.failure()?.errorText ?? '';
    if (request.resourceType() === 'document' && failure.includes('ERR_ABORTED')) return;
    watched.failed.push(`${request.resourceType()} ${path(request.url())} ${failure}`);
  });
  tab.page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() >= 400) watched.bad.push(`${response.status()} ${url.pathname}${url.search}`);
    else if (url.pathname.startsWith('/_nuxt/') && !url.pathname.startsWith('/_nuxt/builds/'))
      watched.assets.push({ path: url.pathname, at: Date.now() });
  });
  tabs.push(watched);
  return watched;
}

/** Waits for the tab's second document; on a timeout says what the tab saw instead. */
async function waitForSecondDocument(tab: WatchedTab, step: string): Promise<void> {
  try {
    await waitFor(() => tab.documents.length === 2, 20_000, 50);
  } catch {
    const state = {
      documents: tab.documents,
      failed: tab.failed,
      bad: tab.bad,
      errorPage: await errorPageShown(tab.page),
      url: tab.page.url(),
    };
    throw new Error(`${step}: no full load within 20 s: ${JSON.stringify(state)}`);
  }
  await tab.page.waitForSelector('html[data-hydrated]', { timeout: 20_000 });
}

const buildIdOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(document.getElementById('__APP_CONFIG__')!.textContent!) as { buildId: string }).buildId);
const errorPageShown = (page: Page) => page.evaluate(() => document.querySelector('[data-error-page]') !== null);

async function latestAt(gateway: ServiceProcess): Promise<string> {
  const response = await fetch(`${gateway.url}/_nuxt/builds/latest.json`);
  return ((await response.json()) as { id: string }).id;
}

describe.runIf(available)('rolling deploy: build A to build B behind two gateways', () => {
  let gateways: ServiceProcess[] = [];
  let renderersA: ServiceProcess[] = [];
  let ports: number[] = [];
  let common: NodeJS.ProcessEnv = {};
  const rendererEnv = (port: number, files: { clientDir: string; metaFile: string }): NodeJS.ProcessEnv => ({
    ...common,
    CLIENT_DIR: files.clientDir,
    BUILD_META_FILE: files.metaFile,
    SSR_ENTRY: join(dist, 'ssr', 'entry-server.js'),
    CONTENT_FILE: join(dist, 'content', 'content.json'),
    RENDERER_ADVERTISE_URL: `http://127.0.0.1:${port}`,
    ANNOUNCE_INTERVAL_MS: '500',
    DRAIN_DELAY_MS: '1000',
    // No poll during the test: a tab learns of B from a payload, as one that was idle would.
    BUILD_CHECK_INTERVAL_MS: '600000',
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rollout-'));
    buildA = (JSON.parse(await readFile(join(dist, 'build', 'meta.json'), 'utf8')) as { id: string }).id;
    build = await makeSecondBuild(join(dir, 'b'), 'rollout-build-b');
    const base = await findFreeBasePort(8);
    ports = Array.from({ length: 8 }, (_, i) => base + i);
    const [g1, g2, a1, a2, , , image, icons] = ports as [number, number, number, number, number, number, number, number];
    common = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      BUILD_STORE_DIR: join(dir, 'build-store'),
      IMAGE_CACHE_DIR: join(dir, 'image-cache'),
      CACHE_DIR: join(dir, 'render-cache'),
      BUILD_POLL_MS: '250',
      IMAGE_URL: `http://127.0.0.1:${image}`,
      ICONS_URL: `http://127.0.0.1:${icons}`,
    };
    const filesA = { clientDir: join(dist, 'client'), metaFile: join(dist, 'build', 'meta.json') };
    const started = await Promise.all([
      startProcess('image', 'image', image, common),
      startProcess('icons', 'icons', icons, common),
      startProcess('renderer-a1', 'renderer', a1, rendererEnv(a1, filesA)),
      startProcess('renderer-a2', 'renderer', a2, rendererEnv(a2, filesA)),
    ]);
    processes.push(...started);
    renderersA = started.slice(2);
    // RENDERER_URL is A1: were a gateway ever to fall back to it after A is gone, the test would see 502s.
    const gatewayEnv = { ...common, RENDERER_URL: `http://127.0.0.1:${a1}`, CLIENT_DIR: build.clientDir };
    gateways = await Promise.all([
      startProcess('gateway-1', 'gateway', g1, gatewayEnv),
      startProcess('gateway-2', 'gateway', g2, gatewayEnv),
    ]);
    processes.push(...gateways);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(tabs.map((tab) => tab.close().catch(() => undefined)));
    await browser?.close();
    await Promise.all(processes.map((p) => p.stop()));
    await deleteKeys(TEST_REDIS_URL, prefix).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every tab on A whole while B rolls out, then moves each to B with one full load', { timeout: 90_000 }, async () => {
    const [g1, g2] = gateways as [ServiceProcess, ServiceProcess];
    const [, , , , b1, b2] = ports as [number, number, number, number, number, number];
    // Tab 1 preloads links (hover, in view); tab 2 is a save-data visitor: chunks only on navigation.
    const eager = await watchedTab({});
    const frugal = await watchedTab({ connection: { saveData: true, effectiveType: '4g' } });
    await gotoHydrated(eager.page, `${g1.url}/`);
    await gotoHydrated(frugal.page, `${g2.url}/`);
    expect([await buildIdOf(eager.page), await buildIdOf(frugal.page)]).toEqual([buildA, buildA]);
    for (const tab of [eager, frugal]) await markDocument(tab.page);

    // On A: client navigations with payloads and a lazy page.
    await eager.page.hover('a[href="/category/git"]');
    await eager.page.click('a[href="/category/git"]');
    await eager.page.waitForFunction(() => document.title.startsWith('Git'));
    await frugal.page.click('a[href="/category/typescript"]');
    await frugal.page.waitForFunction(() => document.title.startsWith('TypeScript'));

    // B rolls out: its renderers publish their files, announce themselves, then make B current.
    const filesB = { clientDir: build.clientDir, metaFile: build.metaFile };
    const renderersB = await Promise.all([
      startProcess('renderer-b1', 'renderer', b1, rendererEnv(b1, filesB)),
      startProcess('renderer-b2', 'renderer', b2, rendererEnv(b2, filesB)),
    ]);
    processes.push(...renderersB);
    await waitFor(async () => (await latestAt(g1)) === build.id && (await latestAt(g2)) === build.id, 20_000, 100);

    // A and B side by side: A's payloads still come from A's renderers, so the tabs stay on A.
    await eager.page.hover('header a[href="/"]');
    await eager.page.click('header a[href="/"]');
    await eager.page.waitForSelector('a[href="/category/typescript"]');
    await clientNavigate(frugal.page, '/category/git');
    await frugal.page.waitForFunction(() => document.title.startsWith('Git'));
    for (const tab of [eager, frugal]) expect(await sameDocument(tab.page)).toBe(true);

    // Every renderer of A stops (SIGTERM: withdraw, drain, close).
    const stoppedAt = Date.now();
    expect(await Promise.all(renderersA.map((r) => r.stop()))).toEqual([0, 0]);
    await sleep(600); // the gateways' next read of the store

    // A lazy page the frugal tab has never loaded: A's chunk from the store, A's payload answered by
    // B, so the navigation becomes one full load of the target on B.
    await frugal.page.click('header a[href="/about"]');
    await waitForSecondDocument(frugal, 'the save-data tab, to /about');
    // The preloading tab hovers and navigates. A payload it preloaded from A in the last 10 s is
    // still good (A's data for A's code): that navigation stays on A, and a later one, whose payload
    // B answers, is the full load. Either way exactly one full load, and nothing fails meanwhile.
    let eagerTarget = '';
    for (const target of ['/category/typescript', '/', '/category/git']) {
      eagerTarget = target;
      const link = eager.page.locator(`a[href="${target}"]`).first();
      await link.hover();
      await link.click();
      await waitFor(() => eager.documents.length === 2 || new URL(eager.page.url()).pathname === target, 20_000, 50);
      await sleep(300);
      if (eager.documents.length === 2) break;
      // A client navigation on A's preloaded data: the same document, no error page.
      expect(await sameDocument(eager.page)).toBe(true);
      expect(await errorPageShown(eager.page)).toBe(false);
    }
    await waitForSecondDocument(eager, `the preloading tab, to ${eagerTarget}`);

    const filesOfA = new Set((await readdir(join(dist, 'client'))).map((name) => `/_nuxt/${name}`));
    for (const [tab, target] of [
      [frugal, '/about'],
      [eager, eagerTarget],
    ] as const) {
      expect(tab.failed).toEqual([]);
      expect(tab.bad).toEqual([]);
      expect(await errorPageShown(tab.page)).toBe(false);
      expect(tab.documents).toEqual(['/', target]);
      expect(await buildIdOf(tab.page)).toBe(build.id);
      expect(await sameDocument(tab.page)).toBe(false);
    }
    // A's files were still loaded after the last of A's renderers had stopped (from the asset store).
    expect(frugal.assets.filter((a) => a.at > stoppedAt && filesOfA.has(a.path)).map((a) => a.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/_nuxt\/about-.*\.js$/)]),
    );
  });
});
