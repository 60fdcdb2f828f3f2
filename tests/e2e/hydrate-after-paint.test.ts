/**
 * The production bootstrap in Chromium (services/renderer/src/hydrate-after-paint.ts):
 * the page's modules are fetched only after the first contentful paint, and after the hero image
 * is painted where there is one; a hero that never comes holds hydration back at most
 * HYDRATE_AFTER_PAINT_MAX_WAIT_MS, and a key press ends the wait at once. An entry that does not
 * load reloads the page once, and a second failure leaves the server's page as it is.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { RELOAD_MARKER_KEY } from '@tern/runtime/shared/reload-guard';
import { HYDRATE_AFTER_PAINT_MAX_WAIT_MS } from '@tern/renderer/hydrate-after-paint';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated } from './site-browser.js';

const stack = stackForFile({ redis: false });
const chromium = chromiumForFile();

const open = () => chromium.newPage({ viewport: { width: 412, height: 823 } });

interface Timings {
  firstContentfulPaint: number;
  /** When each `/_nuxt/*.js` request started, by file name. */
  scripts: Record<string, number>;
  /** The hero image's paint (Element Timing), if there is one. */
  hero: number | null;
}

/** The page's paint and script timings, in milliseconds since navigation start. */
function timings(page: Page): Promise<Timings> {
  return page.evaluate(async () => {
    const hero = await new Promise<number | null>((resolve) => {
      new PerformanceObserver((list) => {
        const entry = list.getEntries().find((e) => (e as PerformanceEntry & { identifier: string }).identifier === 'hero');
        resolve(entry ? (entry as PerformanceEntry & { renderTime: number }).renderTime : null);
      }).observe({ type: 'element', buffered: true });
      setTimeout(() => resolve(null), 200);
    });
    const scripts = Object.fromEntries(
      performance
        .getEntriesByType('resource')
        .filter((e) => /\/_nuxt\/[^/]+\.js$/.test(e.name))
        .map((e) => [new URL(e.name).pathname.split('/').pop()!, e.startTime]),
    );
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]!.startTime;
    return { firstContentfulPaint: fcp, scripts, hero };
  });
}

const waitHydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));

const entryStart = (t: Timings) => {
  const entry = Object.entries(t.scripts).find(([name]) => name.startsWith('entry-client-'));
  if (!entry) throw new Error(`no entry script among ${Object.keys(t.scripts).join(', ')}`);
  return entry[1];
};

describe('hydration after the first paint', () => {
  it('fetches no module of a text page before its first contentful paint', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/login`);
    const t = await timings(page);
    expect(Object.keys(t.scripts).length).toBeGreaterThanOrEqual(4);
    for (const [name, start] of Object.entries(t.scripts)) expect(start, name).toBeGreaterThanOrEqual(t.firstContentfulPaint);
  });

  it('waits for the hero image of the home page to be painted', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/`);
    const t = await timings(page);
    expect(t.hero).not.toBeNull();
    expect(entryStart(t)).toBeGreaterThanOrEqual(t.hero!);
  });

  it('hydrates without a hero that never arrives, after the longest wait', async () => {
    const page = await open();
    // The hero's request stays unanswered: no paint for Element Timing to report.
    await page.route(/\/_ipx\/.*git\.jpg/, () => undefined);
    // No load event either: wait for React instead.
    await page.goto(`${stack.url}/`, { waitUntil: 'commit' });
    await waitHydrated(page);
    const t = await timings(page);
    expect(t.hero).toBeNull();
    expect(entryStart(t)).toBeGreaterThanOrEqual(HYDRATE_AFTER_PAINT_MAX_WAIT_MS - 100);
  });

  it('starts at once on a key press while the hero is still awaited', async () => {
    const page = await open();
    await page.route(/\/_ipx\/.*git\.jpg/, () => undefined);
    await page.goto(`${stack.url}/`, { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const pressedAt = await page.evaluate(() => performance.now());
    // Pressed well before the longest wait would have started the entry anyway.
    expect(pressedAt).toBeLessThan(HYDRATE_AFTER_PAINT_MAX_WAIT_MS - 500);
    await page.keyboard.press('Shift');
    await waitHydrated(page);
    const t = await timings(page);
    expect(entryStart(t)).toBeGreaterThanOrEqual(pressedAt);
    expect(entryStart(t)).toBeLessThan(HYDRATE_AFTER_PAINT_MAX_WAIT_MS - 100);
  });
});

describe('an entry that does not load', () => {
  /** Fails the first `failures` requests for the entry module; counts the document loads. */
  async function withFailingEntry(failures: number, userAgent?: string) {
    const page = await (userAgent ? chromium.newPage({ userAgent }) : open());
    let failed = 0;
    await page.route(/\/_nuxt\/entry-client-[^/]+\.js$/, (route) => (failed++ < failures ? route.abort('failed') : route.continue()));
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) documents.push(request.url());
    });
    return { page, documents, failed: () => failed };
  }

  it('reloads the page once and then hydrates', async () => {
    const { page, documents } = await withFailingEntry(1);
    const url = `${stack.url}/category/git?sort=new`;
    await page.goto(`${url}#top`, { waitUntil: 'commit' });
    await waitHydrated(page);
    expect(documents).toEqual([url, url]);
    const marker = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null'), RELOAD_MARKER_KEY);
    expect(marker).toMatchObject({ path: '/category/git?sort=new#top' });
  });

  it('keeps the server page after a second failure instead of reloading again', async () => {
    const { page, documents } = await withFailingEntry(Infinity);
    await page.goto(`${stack.url}/login`, { waitUntil: 'commit' });
    await expect.poll(() => documents.length, { timeout: 10_000 }).toBe(2);
    // Long enough for a third load to have begun, were there one.
    await page.waitForTimeout(HYDRATE_AFTER_PAINT_MAX_WAIT_MS + 500);
    expect(documents).toHaveLength(2);
    expect(await page.locator('h1').count()).toBe(1);
    const hydrated = await page.evaluate(() =>
      Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
    );
    expect(hydrated).toBe(false);
  });

  it('leaves a crawler on the server page', async () => {
    const { page, documents, failed } = await withFailingEntry(
      Infinity,
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    );
    await page.goto(`${stack.url}/login`);
    await page.waitForTimeout(HYDRATE_AFTER_PAINT_MAX_WAIT_MS + 500);
    expect(failed()).toBe(1);
    expect(documents).toHaveLength(1);
  });
});
