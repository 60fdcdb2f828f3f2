/**
 * Issue 31, "pages that never block", without a clock: the long category page hydrates its first
 * recipe with the page and each later one on its own (HydrateWhenVisible), so what React takes over
 * at load is bounded; a later recipe hydrates when it nears the viewport or is used, and then works
 * as before (its copy buttons, its links as client navigations). The HTML keeps every recipe in
 * place (no part hidden behind a script), so the page reads without JavaScript.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile, PERSON_USER_AGENT } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { clientNavigate, gotoHydrated, markDocument, sameDocument } from './runtime-browser.js';

const stack = stackForFile();
const chromium = chromiumForFile();
const PHONE = { width: 390, height: 800 };

/** Per recipe section in page order: whether React manages it (has hydrated it). */
const hydratedSections = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('section[data-recipe]')].map((section) =>
      Object.keys(section).some((key) => key.startsWith('__reactFiber$')),
    ),
  );

/** Elements under the app's root that React manages. */
const reactElements = (page: Page) =>
  page.evaluate(
    () => [...document.querySelectorAll('#root *')].filter((el) => Object.keys(el).some((key) => key.startsWith('__reactFiber$'))).length,
  );

describe('the category page hydrates in parts', () => {
  it('takes over the first recipe with the page and each later one as it comes into view', async () => {
    const page = await chromium.newPage({ viewport: PHONE });
    await gotoHydrated(page, `${stack.url}/category/git`);
    const atLoad = await hydratedSections(page);
    expect(atLoad.length).toBeGreaterThan(2);
    expect(atLoad).toEqual([true, ...atLoad.slice(1).map(() => false)]);
    const managedAtLoad = await reactElements(page);

    const last = page.locator('section[data-recipe]').last();
    await last.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const sections = document.querySelectorAll('section[data-recipe]');
      return Object.keys(sections[sections.length - 1]!).some((key) => key.startsWith('__reactFiber$'));
    });
    // Hydrated as the others are: its code blocks got their copy buttons.
    await last.getByRole('button', { name: 'Copy code' }).first().waitFor();
    expect(await reactElements(page)).toBeGreaterThan(managedAtLoad);
  });

  it('hydrates a later recipe that is used before it was seen, and the press reaches the app', async () => {
    const page = await chromium.newPage({ viewport: PHONE });
    await gotoHydrated(page, `${stack.url}/category/git`);
    expect((await hydratedSections(page)).at(-1)).toBe(false);
    await markDocument(page);
    const tag = page.locator('section[data-recipe]').last().locator('a[href^="/tags/"]').first();
    const href = (await tag.getAttribute('href'))!;
    await tag.click();
    await page.waitForFunction((path) => location.pathname === path && document.querySelector('h1') !== null, href);
    // A client navigation (the Link's handler ran), not the plain link's full load.
    expect(await sameDocument(page)).toBe(true);
  });

  it('renders every recipe at once on a client navigation', async () => {
    const page = await chromium.newPage({ viewport: PHONE });
    await gotoHydrated(page, `${stack.url}/`);
    await page.click('a[href="/category/git"]');
    await page.waitForFunction(() => location.pathname === '/category/git' && document.querySelector('section[data-recipe]') !== null);
    const sections = await hydratedSections(page);
    expect(sections.length).toBeGreaterThan(2);
    expect(sections.every(Boolean)).toBe(true);
  });

  it('keeps every recipe in place in the HTML, none behind a script', async () => {
    const response = await fetch(`${stack.url}/category/git`, { headers: { 'user-agent': PERSON_USER_AGENT, accept: 'text/html' } });
    const html = await response.text();
    expect(html).toContain('<!--$-->');
    // React's outlined boundaries: a pending marker and the content in a hidden div for a script to move.
    expect(html).not.toContain('<!--$?-->');
    expect(html).not.toMatch(/<div hidden id="S:/);
    expect(html.match(/<section id="[^"]+"[^>]*data-recipe=/g)?.length).toBeGreaterThan(2);
  });
});

describe('recipe bodies travel once', () => {
  const inlinePayload = (html: string) => /<script type="application\/json" id="__PAYLOAD__"[^>]*>([^<]*)<\/script>/.exec(html)![1]!;

  it.each(['/category/git', '/recipes/find-a-regression-with-bisect'])(
    '%s: in the document, not again in the inline payload',
    async (path) => {
      const html = await (await fetch(`${stack.url}${path}`, { headers: { 'user-agent': PERSON_USER_AGENT, accept: 'text/html' } })).text();
      const inline = inlinePayload(html);
      expect(html).toMatch(/<figure [^>]*data-code-block/);
      expect(inline).not.toContain('data-code-block');
      expect(inline).toContain('"$domHtml":"recipe:');
      // Bounded: the bodies were 25 KB of /category/git's 58 KB.
      expect(inline.length).toBeLessThan(8 * 1024);
      // A client navigation's payload still carries them.
      const buildId = JSON.parse(inline).buildId as string;
      const payload = await (await fetch(`${stack.url}${path}/_payload.json?${buildId}`)).text();
      expect(payload).toContain('data-code-block');
    },
  );

  it('reads them back from the page at hydration, and a reload of the data keeps what is drawn', async () => {
    const page = await chromium.newPage({ viewport: PHONE });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    await gotoHydrated(page, `${stack.url}/category/git`);
    const first = page.locator('section[data-recipe]').first();
    await first.getByRole('button', { name: 'Copy code' }).first().waitFor();
    await page.evaluate(() => Object.assign(window, { __body: document.querySelector('section[data-recipe] [data-dom-html]') }));
    // The later recipes are still waiting to hydrate when the new data comes.
    expect((await hydratedSections(page)).slice(1).every((hydrated) => !hydrated)).toBe(true);
    const payloads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/_payload.json')) payloads.push(new URL(request.url()).pathname);
    });
    // The same page again: its data comes from /_payload.json, with the server's spelling of the HTML.
    await markDocument(page);
    await clientNavigate(page, '/category/git?again');
    await expect.poll(() => payloads).toContain('/category/git/_payload.json');
    // The update is not held until the waiting recipes come into view: they hydrate with it.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('section[data-recipe]')].every((section) =>
        Object.keys(section).some((key) => key.startsWith('__reactFiber$')),
      ),
    );
    expect(await sameDocument(page)).toBe(true);
    // Drawn once and kept: the same element, its copy buttons still in it.
    const kept = await page.evaluate(() => {
      const body = (window as unknown as { __body: Element }).__body;
      return { connected: body.isConnected, buttons: body.querySelectorAll('button[aria-label="Copy code"]').length };
    });
    expect(kept.connected).toBe(true);
    expect(kept.buttons).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
