/**
 * Issue #5 in Chromium through the real stack: the manifest fetched 1000 ms after hydration
 * (not on slow-2g), chunk and stylesheet failures reloading once and never looping, and a new
 * build (published to the stack's store, or announced by a payload) making the next navigation
 * a full page load that keeps the query and the hash.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createFileBuildStore } from '@tern/shared/build-store/file-build-store';
import { MANIFEST_PREFETCH_DELAY_MS } from '@tern/runtime/browser/app-manifest';
import { RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '@tern/runtime/shared/reload-guard';
import { waitFor } from '../support/wait-for.js';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { clientNavigate, gotoHydrated, markDocument, openTab, sameDocument, sleep, type Tab } from './runtime-browser.js';

const CHECK_INTERVAL_MS = 300;
const stack = stackForFile({ env: { BUILD_CHECK_INTERVAL_MS: String(CHECK_INTERVAL_MS) } });
const chromium = chromiumForFile();

async function tab(options: Parameters<typeof openTab>[1] = {}): Promise<Tab> {
  const opened = await openTab(chromium, options);
  await opened.context.addInitScript(() => {
    window.addEventListener('app:hydrated', () => Object.assign(window, { __hydratedAt: performance.now() }));
  });
  return opened;
}

/** When the build meta was asked for, in ms after hydration; null if it was not. */
function metaRequestDelay(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/builds/meta/'));
    const hydratedAt = (window as { __hydratedAt?: number }).__hydratedAt;
    return entry && hydratedAt !== undefined ? entry.startTime - hydratedAt : null;
  });
}

describe('app manifest', () => {
  it(`is fetched ${MANIFEST_PREFETCH_DELAY_MS} ms after hydration, for this page's build`, async () => {
    const t = await tab();
    await gotoHydrated(t.page, `${stack.url}/`);
    const buildId = await t.page.evaluate(
      () => (JSON.parse(document.getElementById('__APP_CONFIG__')!.textContent!) as { buildId: string }).buildId,
    );
    await sleep(MANIFEST_PREFETCH_DELAY_MS + 800);
    const delay = await metaRequestDelay(t.page);
    expect(delay).not.toBeNull();
    expect(delay!).toBeGreaterThanOrEqual(MANIFEST_PREFETCH_DELAY_MS);
    expect(delay!).toBeLessThan(MANIFEST_PREFETCH_DELAY_MS + 500);
    expect(t.requests.filter((r) => r.includes('/builds/meta/'))).toEqual([`/_nuxt/builds/meta/${buildId}.json`]);
  });

  it('is not fetched ahead on slow-2g', async () => {
    const t = await tab({ connection: { effectiveType: 'slow-2g' } });
    await gotoHydrated(t.page, `${stack.url}/`);
    await sleep(MANIFEST_PREFETCH_DELAY_MS + 1000);
    expect(t.requests.filter((r) => r.includes('/builds/meta/'))).toEqual([]);
  });
});

describe('chunk and stylesheet failures', () => {
  it('a page chunk answered 404 reloads the target once, then shows the error page, with no loop', async () => {
    const t = await tab();
    await t.page.route('**/_nuxt/_id_-*.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await gotoHydrated(t.page, `${stack.url}/`);
    // The failed preloads of the category chunk (links in view) reload nothing.
    await sleep(1200);
    expect(t.documents).toEqual(['/']);
    await t.page.click('a[href="/category/git"]');
    await t.page.waitForSelector('[data-error-page]', { timeout: 10_000 });
    await sleep(2500);
    expect(t.documents).toEqual(['/', '/category/git']);
    expect(new URL(t.page.url()).pathname).toBe('/category/git');
    const marker = await t.page.evaluate(
      (key) => JSON.parse(sessionStorage.getItem(key) ?? 'null') as { path: string; expires: number } | null,
      RELOAD_MARKER_KEY,
    );
    expect(marker?.path).toBe('/category/git');
    expect(marker!.expires - Date.now()).toBeGreaterThan(0);
    expect(marker!.expires - Date.now()).toBeLessThanOrEqual(RELOAD_GUARD_MS);
  });

  it("'Unable to preload CSS' reloads the page once; a second one within 10 s does not", async () => {
    // Link preloads off: an error while one is loading counts as the preload's and reloads nothing.
    const t = await tab({ connection: { saveData: true, effectiveType: '4g' } });
    await gotoHydrated(t.page, `${stack.url}/login?next=1#top`);
    const fail = () =>
      t.page.evaluate(() => {
        const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), {
          payload: new Error('Unable to preload CSS for /_nuxt/missing.css'),
        });
        window.dispatchEvent(event);
      });
    await fail();
    await waitFor(() => t.documents.length === 2, 8000, 50);
    expect(t.documents).toEqual(['/login?next=1', '/login?next=1']);
    await t.page.waitForSelector('html[data-hydrated]');
    await fail();
    await sleep(1500);
    expect(t.documents.length).toBe(2);
  });
});

describe('build freshness', () => {
  it('a payload answered by another build makes the navigation a full page load', async () => {
    const t = await tab();
    await t.page.route('**/category/git/_payload.json*', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'x-build-id': 'a-newer-build' } });
    });
    await gotoHydrated(t.page, `${stack.url}/`);
    await markDocument(t.page);
    await t.page.click('a[href="/category/git"]');
    await waitFor(() => t.documents.length === 2, 8000, 50);
    expect(t.documents).toEqual(['/', '/category/git']);
    await t.page.waitForSelector('html[data-hydrated]');
    expect(await sameDocument(t.page)).toBe(false);
  });

  it(`checks latest.json every ${CHECK_INTERVAL_MS} ms; once the store has a new build the next navigation is a full load, query and hash kept`, async () => {
    const t = await tab();
    await gotoHydrated(t.page, `${stack.url}/`);
    const latest = () => t.requests.filter((r) => /^\/_nuxt\/builds\/latest\.json\?\d+$/.test(r));
    await waitFor(() => latest().length >= 3, 8000, 50);
    // Still the same build: client navigations stay client-side.
    await markDocument(t.page);
    await t.page.click('a[href="/category/git"]');
    await t.page.waitForFunction(() => document.title.startsWith('Git'));
    expect(await sameDocument(t.page)).toBe(true);

    const store = createFileBuildStore({ dir: stack.running.buildStoreDir! });
    const current = (await store.current())!;
    await store.publish({ ...(await store.meta(current.id))!, id: 'next-build', timestamp: Date.now() });
    await store.close();
    const asked = latest().length;
    // The gateway follows the store (≤ 500 ms), then the next check sees the new id and stops.
    await sleep(1500);
    const afterChange = latest().length;
    expect(afterChange).toBeGreaterThan(asked);
    await sleep(CHECK_INTERVAL_MS * 3);
    expect(latest().length).toBe(afterChange);

    await clientNavigate(t.page, '/category/typescript?view=all#top');
    await waitFor(() => t.documents.length === 2, 8000, 50);
    expect(t.documents).toEqual(['/', '/category/typescript?view=all']);
    await t.page.waitForSelector('html[data-hydrated]');
    expect(new URL(t.page.url()).hash).toBe('#top');
    expect(await sameDocument(t.page)).toBe(false);
  });
});
