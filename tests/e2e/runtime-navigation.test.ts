/**
 * Issue #5 in Chromium through the real stack: client navigation without reload, scroll
 * positions (top, hash target with scroll-margin-top, back/forward), link preloading (at most 4
 * in flight, none on save-data or 2g), route-rule redirects on the client with the gateway's
 * matcher, and loader errors during client navigation shown as the error page, then cleared.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_ROUTE_PRELOADS } from '@tern/runtime/browser/preload-queue';
import { DEMO } from '../integration/site-support.js';
import { waitFor } from '../support/wait-for.js';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { clientNavigate, gotoHydrated, markDocument, openTab, sameDocument, sleep, type Tab } from './runtime-browser.js';

const stack = stackForFile();
const chromium = chromiumForFile();

const tab = (options: Parameters<typeof openTab>[1] = {}): Promise<Tab> => openTab(chromium, options);

const payloads = (t: Tab) => t.requests.filter((r) => r.includes('/_payload.json'));
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

describe('client navigation', () => {
  it('follows a link without reloading the page', async () => {
    const t = await tab();
    await gotoHydrated(t.page, `${stack.url}/`);
    await markDocument(t.page);
    await t.page.click('a[href="/category/git"]');
    await t.page.waitForFunction(() => document.title.startsWith('Git'));
    expect(new URL(t.page.url()).pathname).toBe('/category/git');
    expect(await sameDocument(t.page)).toBe(true);
    expect(t.documents).toEqual(['/']);
    expect(t.errors).toEqual([]);
  });
});

describe('scroll', () => {
  it('goes to the top on a new page and back to where it was on Back, then Forward', async () => {
    const t = await tab({ viewport: { width: 1280, height: 500 } });
    await gotoHydrated(t.page, `${stack.url}/`);
    // The last category card: far enough down that the page has to scroll to show it.
    const link = t.page.locator('a[href^="/category/"]:not([href*="#"])').last();
    const href = (await link.getAttribute('href'))!;
    await link.scrollIntoViewIfNeeded();
    const before = await scrollY(t.page);
    expect(before).toBeGreaterThan(100);
    await link.click();
    await t.page.waitForFunction((path) => location.pathname === path, href);
    // The new page renders (and React Router scrolls) just after the address changes.
    await t.page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 5000 });
    await t.page.evaluate(() => window.scrollTo(0, 400));
    await t.page.goBack();
    await t.page.waitForFunction(() => location.pathname === '/');
    await t.page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 1, before, { timeout: 5000 });
    await t.page.goForward();
    await t.page.waitForFunction((path) => location.pathname === path, href);
    await t.page.waitForFunction(() => Math.abs(window.scrollY - 400) <= 1, undefined, { timeout: 5000 });
    expect(t.documents).toEqual(['/']);
  });

  it('lands on the hash target, respecting its scroll-margin-top', async () => {
    // No link of the site points at an anchor of another page any more (a recipe has a page of its
    // own). The app still goes to one: "Sign in to save" on a recipe of a category page opens the
    // login, whose navigate() takes the visitor back to `/category/{id}#{recipe}` without a reload.
    const t = await tab({ viewport: { width: 1280, height: 500 } });
    await gotoHydrated(t.page, `${stack.url}/category/git`);
    // The second recipe: below the fold, with the page long enough after it to scroll it to the top.
    const section = t.page.locator('section[data-recipe]').nth(1);
    const id = (await section.getAttribute('id'))!;
    await markDocument(t.page);
    await section.getByRole('link', { name: /Sign in to save/ }).click();
    await t.page.waitForFunction(() => location.pathname === '/login');
    await t.page.evaluate(() => window.scrollTo(0, 0));
    await t.page.getByLabel('Email').fill(DEMO.email);
    await t.page.getByLabel('Password').fill(DEMO.password);
    await t.page.getByRole('button', { name: 'Sign in' }).click();
    await t.page.waitForFunction((target) => location.pathname === '/category/git' && location.hash === `#${target}`, id);
    const position = (target: string) => {
      const el = document.getElementById(target);
      return el && { top: Math.round(el.getBoundingClientRect().top), margin: parseFloat(getComputedStyle(el).scrollMarginTop) };
    };
    // React Router scrolls once the new page has rendered, just after the address changes.
    await t.page
      .waitForFunction(
        (target) => {
          const el = document.getElementById(target);
          return el !== null && Math.abs(el.getBoundingClientRect().top - parseFloat(getComputedStyle(el).scrollMarginTop)) <= 1;
        },
        id,
        { timeout: 5000 },
      )
      .catch(() => undefined);
    const { top, margin } = (await t.page.evaluate(position, id))!;
    expect(margin).toBeGreaterThan(0);
    expect(Math.abs(top - margin)).toBeLessThanOrEqual(1);
    expect(await t.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(await sameDocument(t.page)).toBe(true);
    expect(t.documents).toEqual(['/category/git']);
  });
});

/** Holds every payload answer for `ms`, counting how many were in flight at once. */
async function holdPayloads(page: Page, ms: number): Promise<{ peak: () => number; total: () => number }> {
  let inFlight = 0;
  let peak = 0;
  let total = 0;
  await page.route('**/_payload.json*', async (route: Route) => {
    inFlight += 1;
    total += 1;
    peak = Math.max(peak, inFlight);
    await sleep(ms);
    await route.continue().catch(() => undefined);
    inFlight -= 1;
  });
  return { peak: () => peak, total: () => total };
}

describe('link preloading', () => {
  it(`preloads links in view, at most ${MAX_CONCURRENT_ROUTE_PRELOADS} requests in flight`, async () => {
    const t = await tab({ viewport: { width: 1280, height: 2000 } });
    const held = await holdPayloads(t.page, 400);
    await gotoHydrated(t.page, `${stack.url}/`);
    const links = await t.page.evaluate(
      () => new Set([...document.querySelectorAll('a[href^="/category/"]')].map((a) => a.getAttribute('href')!.split('#')[0])).size,
    );
    expect(links).toBeGreaterThan(MAX_CONCURRENT_ROUTE_PRELOADS);
    await waitFor(() => held.total() >= links, 5000, 50);
    await sleep(500);
    expect(held.peak()).toBe(MAX_CONCURRENT_ROUTE_PRELOADS);
    // The chunk of the category page came too, once for every category.
    expect(t.requests.filter((r) => /\/_id_-[\w-]+\.js$/.test(r)).length).toBe(1);
  });

  it('preloads on hover, and the click then uses the preloaded payload', async () => {
    const t = await tab({ viewport: { width: 1280, height: 300 } });
    await gotoHydrated(t.page, `${stack.url}/`);
    // A link below the fold: nothing preloads it until the pointer is over it.
    const selector = 'a[href^="/category/"]:not([href*="#"]) >> nth=-1';
    const href = (await t.page.getAttribute(selector, 'href'))!;
    const forTarget = () => payloads(t).filter((r) => r.startsWith(`${href}/_payload.json`));
    await sleep(600);
    expect(forTarget()).toEqual([]);
    await t.page.dispatchEvent(selector, 'pointerover');
    await waitFor(() => forTarget().length === 1, 5000, 50);
    await markDocument(t.page);
    await t.page.click(selector);
    await t.page.waitForFunction((path) => location.pathname === path && document.querySelector('[data-layout] h1') !== null, href);
    expect(forTarget().length).toBe(1);
    expect(await sameDocument(t.page)).toBe(true);
  });

  it.each([
    ['save-data', { saveData: true, effectiveType: '4g' }],
    ['2g', { effectiveType: '2g' }],
    ['slow-2g', { effectiveType: 'slow-2g' }],
  ])('preloads nothing on %s', async (_name, connection) => {
    const t = await tab({ connection, viewport: { width: 1280, height: 2000 } });
    await gotoHydrated(t.page, `${stack.url}/`);
    await t.page.hover('a[href="/category/git"]');
    await sleep(800);
    expect(payloads(t)).toEqual([]);
    expect(t.requests.filter((r) => /\/_id_-[\w-]+\.js$/.test(r))).toEqual([]);
  });
});

describe('route rules on client navigation', () => {
  it('redirects /** with the rest of the path, the query and the hash, without a reload', async () => {
    const t = await tab();
    await gotoHydrated(t.page, `${stack.url}/login`);
    await markDocument(t.page);
    await clientNavigate(t.page, '/categories/git?from=old#undo-last-commit');
    await t.page.waitForFunction(() => location.pathname === '/category/git');
    expect(new URL(t.page.url()).search).toBe('?from=old');
    expect(new URL(t.page.url()).hash).toBe('#undo-last-commit');
    await t.page.waitForFunction(() => document.title.startsWith('Git'));
    expect(await sameDocument(t.page)).toBe(true);
    expect(t.documents).toEqual(['/login']);
  });

  it('leaves the app for an external target', async () => {
    const t = await tab();
    await t.context.route('https://example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>outside</title>' }),
    );
    await gotoHydrated(t.page, `${stack.url}/login`);
    await clientNavigate(t.page, '/source');
    await t.page.waitForURL('https://example.com/source', { timeout: 10_000 });
    expect(t.documents.at(-1)).toBe('/source');
  });
});

describe('errors during client navigation', () => {
  it('shows the error page of a failing loader, and the next navigation clears it', async () => {
    const t = await tab();
    await t.page.route('**/category/git/_payload.json*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          url: '/category/git',
          statusCode: 503,
          statusMessage: 'Service Unavailable',
          message: 'Content store away',
        }),
      }),
    );
    await gotoHydrated(t.page, `${stack.url}/`);
    await markDocument(t.page);
    await t.page.click('a[href="/category/git"]');
    await t.page.waitForSelector('[data-error-page="503"]');
    // The cookbook's own error page (defineSiteApp({ errorPage })) titles it with an h1.
    await t.page.getByRole('heading', { name: 'Service unavailable, try again' }).waitFor();
    expect(await t.page.textContent('[data-error-page]')).toContain('Content store away');
    await t.page.goBack();
    // The site's error page is drawn inside its layout, so the layout is there before and after:
    // wait for the error page to leave and the home page to be drawn in its place.
    await t.page.waitForFunction(() => location.pathname === '/');
    await t.page.waitForSelector('[data-error-page]', { state: 'detached', timeout: 10_000 });
    expect(await t.page.$('main a[href="/category/git"]')).not.toBeNull();
    expect(await sameDocument(t.page)).toBe(true);
  });

  it('shows Page Not Found for a category that fails validation, as the server does', async () => {
    const t = await tab();
    await gotoHydrated(t.page, `${stack.url}/`);
    await markDocument(t.page);
    await clientNavigate(t.page, '/category/Not_A_Slug');
    await t.page.waitForSelector('[data-error-page="404"]');
    await t.page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await sameDocument(t.page)).toBe(true);
    const server = await tab();
    await gotoHydrated(server.page, `${stack.url}/category/Not_A_Slug`);
    expect(await server.page.textContent('[data-error-page]')).toBe(await t.page.textContent('[data-error-page]'));
  });
});
