/**
 * The site's interaction-only code (Radix: the colour menu, tooltips, toasts) loads on first use,
 * invisibly: nothing of it before the visitor reaches for something (also after the idle-time
 * work of the first seconds), and the first hover, focus or click works as if it had been there.
 */
import type { BrowserContextOptions, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MANIFEST_PREFETCH_DELAY_MS } from '@tern/runtime/browser/app-manifest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated } from './site-browser.js';
import { DEMO } from '../integration/site-support.js';

/** Text only Radix's code carries. */
const RADIX_MARKERS = ['--radix-', 'data-radix-'];

const stack = stackForFile({ redis: false });
const chromium = chromiumForFile();

interface Watched {
  page: Page;
  /** Paths of the scripts fetched so far that hold Radix code. */
  radixScripts(): Promise<string[]>;
  scripts: string[];
  iconRequests: string[];
  errors: string[];
}

async function open(options: BrowserContextOptions = {}): Promise<Watched> {
  const page = await chromium.newPage({ viewport: { width: 1024, height: 768 }, ...options });
  const bodies: Promise<{ path: string; text: string }>[] = [];
  const scripts: string[] = [];
  const iconRequests: string[] = [];
  const errors: string[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/_nuxt_icon')) iconRequests.push(url.pathname + url.search);
    if (!url.pathname.endsWith('.js')) return;
    scripts.push(url.pathname);
    bodies.push(
      response.text().then(
        (text) => ({ path: url.pathname, text }),
        () => ({ path: url.pathname, text: '' }),
      ),
    );
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const radixScripts = async () =>
    (await Promise.all(bodies)).filter((b) => RADIX_MARKERS.some((marker) => b.text.includes(marker))).map((b) => b.path);
  return { page, radixScripts, scripts, iconRequests, errors };
}

/** Loads a page and lets its idle-time work (the manifest warm-up at 1 s, link preloads) run. */
async function land(watched: Watched, path: string): Promise<void> {
  await gotoHydrated(watched.page, `${stack.url}${path}`);
  await watched.page.waitForTimeout(MANIFEST_PREFETCH_DELAY_MS + 500);
  await watched.page.waitForLoadState('networkidle');
}

async function signIn(page: Page): Promise<void> {
  const response = await page.request.post(`${stack.url}/api/auth/login`, {
    data: DEMO,
    headers: { origin: stack.url },
  });
  expect(response.status()).toBe(200);
}

describe('interaction-only code', () => {
  it('is not fetched by a page load, even once the page is idle', async () => {
    for (const path of ['/', '/category/git', '/login']) {
      const watched = await open();
      await land(watched, path);
      expect(await watched.radixScripts(), path).toEqual([]);
      expect(watched.errors, path).toEqual([]);
      await watched.page.context().close();
    }
  });

  it('the colour menu opens on the first click and switches the mode, without moving the button', async () => {
    const watched = await open({ colorScheme: 'light' });
    const { page } = watched;
    await land(watched, '/category/git');
    const before = await page.locator('[data-color-mode-switch]:visible').boundingBox();
    await page.click('[data-color-mode-switch]');
    await page.getByRole('menu').waitFor({ state: 'visible' });
    expect(await page.locator('[data-color-mode-switch]:visible').boundingBox()).toEqual(before);
    expect((await watched.radixScripts()).length).toBeGreaterThan(0);
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    expect(watched.errors).toEqual([]);
  });

  it('the colour menu opens from the keyboard: Tab to it shows its tooltip, Enter opens it', async () => {
    const watched = await open();
    const { page } = watched;
    await land(watched, '/');
    // The header's sign-in link comes just before the switch.
    await page.locator('[data-account]:visible').focus();
    await page.keyboard.press('Tab');
    // The stand-in gave way to the menu's trigger, which kept the focus and shows its tooltip.
    await page.locator('[data-ui-tooltip]', { hasText: 'Colour mode' }).waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-color-mode-switch'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitemradio');
  });

  it('a tooltip shows on the first hover of a copy button, with no further pointer move', async () => {
    const watched = await open();
    const { page } = watched;
    await land(watched, '/category/git');
    const copy = page.locator('figure[data-code-block] [data-copy-button]').first();
    await copy.scrollIntoViewIfNeeded();
    const box = (await copy.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('[data-ui-tooltip]', { hasText: 'Copy code' }).waitFor({ state: 'visible' });
    expect(await page.locator('[data-ui-tooltip]').getAttribute('data-state')).toBe('delayed-open');
  });

  it('the save button (icon only) has a tooltip and its name; saving shows a toast', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(page);
    await land(watched, '/category/git');
    const save = page.getByRole('button', { name: /^(Save|Remove from saved) / }).first();
    const name = (await save.textContent()) ?? '';
    await save.hover();
    await page.locator('[data-ui-tooltip]', { hasText: /^(Save recipe|Remove from saved)$/ }).waitFor({ state: 'visible' });
    await save.click();
    await page.locator('li.ui-toast').first().waitFor({ state: 'visible' });
    expect(name).toMatch(/^(Save|Remove from saved) \S/);
    expect(watched.errors).toEqual([]);
  });

  it('a press under way when the code arrives still presses the button', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(page);
    // The tooltip's code is held until the button is pressed down: it then arrives mid-press.
    let deliver = () => undefined as void;
    const held = new Promise<void>((resolve) => (deliver = resolve));
    await page.route(/\/tooltip-radix-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await land(watched, '/category/git');
    const recipe = await page.locator('[data-recipe]').first().getAttribute('data-recipe');
    const save = page.locator(`[data-recipe="${recipe}"] [data-save]`);
    const before = await save.getAttribute('data-save');
    expect(before).toMatch(/^(saved|not-saved)$/);
    const box = (await save.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    const arrived = page.waitForResponse(/\/tooltip-radix-[^/]*\.js$/);
    deliver();
    await arrived;
    // Time for the arrived code to be drawn, as it would be on a slow phone mid-press.
    await page.waitForTimeout(300);
    await page.mouse.up();
    await page.locator('li.ui-toast').first().waitFor({ state: 'visible' });
    await page.locator(`[data-recipe="${recipe}"] [data-save="${before === 'saved' ? 'not-saved' : 'saved'}"]`).waitFor();
    expect(watched.errors).toEqual([]);
  });
});

describe('content icons', () => {
  it('are taken from the server HTML at hydration (no icon request), and loaded on a client navigation', async () => {
    const watched = await open();
    const { page } = watched;
    await land(watched, '/category/git');
    expect(watched.iconRequests).toEqual([]);
    expect(await page.locator('[data-icon][data-icon-state]').count()).toBe(0);
    expect(watched.scripts.filter((s) => /icons-loader|icon-set/.test(s))).toEqual([]);

    // Another category, by the client router: its recipe icons come from the icon service.
    await page.locator('header a:visible', { hasText: 'Home' }).click();
    await page.waitForURL(`${stack.url}/`);
    await page.locator('a[href="/category/docker"]').first().click();
    await page.waitForURL(`${stack.url}/category/docker`);
    await page.locator('h1', { hasText: 'Docker' }).waitFor();
    await expect.poll(() => page.locator('[data-icon][data-icon-state]').count()).toBe(0);
    expect(await page.locator('section[data-recipe] h2 svg[data-icon]').count()).toBeGreaterThan(0);
    expect(watched.errors).toEqual([]);
  });
});
