/**
 * Issue #15 item 7 in Chromium through the whole stack: once a new build is published, Back and
 * Forward are full page loads (docs/spec.md §4), and each lands where the visitor left that
 * history entry, not at the top.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createFileBuildStore } from '@tern/shared/build-store/file-build-store';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated, markDocument, openTab, sameDocument } from './runtime-browser.js';

const CHECK_INTERVAL_MS = 300;
const stack = stackForFile({ env: { BUILD_CHECK_INTERVAL_MS: String(CHECK_INTERVAL_MS) } });
const chromium = chromiumForFile();

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Scrolls to `y` and waits until the page is there (smooth scrolling or not). */
async function scrollTo(page: Page, y: number): Promise<void> {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
  await page.waitForFunction((top) => Math.abs(window.scrollY - top) <= 1, y);
}

/** Publishes a new build id to the stack's store, as a deploy would. */
async function publishNewBuild(id: string): Promise<void> {
  const store = createFileBuildStore({ dir: stack.running.buildStoreDir! });
  const current = (await store.current())!;
  await store.publish({ ...(await store.meta(current.id))!, id, timestamp: Date.now() });
  await store.close();
}

/**
 * Resolves once the page has been told `id` by latest.json: from then on its next navigation is
 * a full load. Start it before the action that leads to the check, so no answer is missed.
 */
function toldOfBuild(page: Page, id: string): Promise<unknown> {
  return page.waitForResponse(
    async (response) => {
      if (!response.url().includes('/builds/latest.json')) return false;
      const body = (await response.json().catch(() => null)) as { id?: string } | null;
      return body?.id === id;
    },
    { timeout: 10_000 },
  );
}

/** Waits for a new document (the mark left by markDocument is gone) to be hydrated, then for the offset to settle on `y`. */
async function loadedAt(page: Page, path: string, y: number): Promise<number> {
  await page.waitForFunction(
    (p) =>
      !(window as { __sameDocument?: boolean }).__sameDocument &&
      location.pathname === p &&
      document.documentElement.hasAttribute('data-hydrated'),
    path,
    { timeout: 15_000 },
  );
  await page.waitForFunction((top) => Math.abs(window.scrollY - top) <= 1, y, { timeout: 5000 }).catch(() => undefined);
  return scrollY(page);
}

describe('after a build change', () => {
  it('Back and Forward are full loads that restore the scroll position of their entry', async () => {
    const tab = await openTab(chromium);
    const { page } = tab;
    await gotoHydrated(page, `${stack.url}/category/git`);
    const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(height).toBeGreaterThan(1500);
    await scrollTo(page, 1400);

    // A client navigation to the home page, scrolled too.
    await markDocument(page);
    await page.evaluate(() => (document.querySelector('a[href="/"]') as HTMLAnchorElement).click());
    await page.waitForFunction(() => location.pathname === '/' && document.querySelector('#categories-title') !== null);
    expect(await sameDocument(page)).toBe(true);
    await scrollTo(page, 600);

    const told = toldOfBuild(page, 'next-build-1');
    await publishNewBuild('next-build-1');
    await told;

    const documentsBefore = tab.documents.length;
    // The document Back loads is of the old build too: the store still names a newer one.
    const toldAgain = toldOfBuild(page, 'next-build-1');
    await page.goBack();
    expect(await loadedAt(page, '/category/git', 1400)).toBe(1400);
    expect(tab.documents.slice(documentsBefore)).toEqual(['/category/git']);

    await toldAgain;
    await markDocument(page);
    const toldOnceMore = toldOfBuild(page, 'next-build-1');
    await page.goForward();
    expect(await loadedAt(page, '/', 600)).toBe(600);
    expect(tab.documents.slice(documentsBefore)).toEqual(['/category/git', '/']);

    // A link followed after the build change is a full load too, and starts at the top.
    await toldOnceMore;
    await markDocument(page);
    await page.evaluate(() => (document.querySelector('a[href="/category/git"]') as HTMLAnchorElement).click());
    expect(await loadedAt(page, '/category/git', 0)).toBe(0);
    expect(tab.documents.slice(documentsBefore)).toEqual(['/category/git', '/', '/category/git']);
  });
});
