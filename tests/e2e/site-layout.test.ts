/**
 * Every page fits every screen (issue 31): at 320, 390, 768 and 1280 px, signed in and out, no
 * horizontal scroll, every header control inside the viewport and on one line; below `lg` the
 * header's controls are in a menu that opens, holds them all, and closes on Escape with focus back
 * on its button. Plus the skip link, the recipe an anchor points at, print styles, and the menu
 * without JavaScript.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { DEMO } from '../integration/site-support.js';
import { gotoHydrated, seriousViolations } from './site-browser.js';

/** One of each page type (the site's header is `header.site-header`: a recipe has a header of its own). */
export const LAYOUT_PATHS = [
  '/',
  '/category/git',
  '/saved',
  '/about',
  '/login',
  '/no-such-page',
  '/recipes/undo-last-commit',
  '/tags/git',
  '/search?q=git',
];
/** Paths that answer 404 on purpose; every other path is a page. */
const NOT_FOUND_ON_PURPOSE = new Set(['/no-such-page']);
const WITHOUT_VIEWER = new Set(['/about', '/no-such-page']);
const WIDTHS = [320, 390, 768, 1280];
/** From here up the header is a bar (Tailwind's `lg`); below it, a menu. */
const BAR_FROM = 1024;

const stack = stackForFile({ redis: false });
const chromium = chromiumForFile();

async function signIn(page: Page): Promise<void> {
  const response = await page.request.post(`${stack.url}/api/auth/login`, { data: DEMO, headers: { origin: stack.url } });
  expect(response.status()).toBe(200);
}

interface ControlReport {
  name: string;
  left: number;
  right: number;
  lines: number;
}

/** The header's visible controls: where each is, and on how many lines its text is laid out. */
function headerControls(page: Page, root = 'header.site-header'): Promise<ControlReport[]> {
  return page.evaluate((selector) => {
    const controls = [...document.querySelectorAll<HTMLElement>(`${selector} :is(a, button, input, summary, [data-account] > span)`)];
    return controls
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        // Each line of text gives rects at its own top: one control, one line.
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((r) => Math.round(r.top)));
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
        return { name: name || el.tagName, left: box.left, right: box.right, lines: Math.max(tops.size, 1) };
      });
  }, root);
}

async function expectFits(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where}: no horizontal scroll`).toBeLessThanOrEqual(innerWidth);
  for (const control of await headerControls(page)) {
    expect(control.left, `${where}: "${control.name}" starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(control.right, `${where}: "${control.name}" ends inside the screen`).toBeLessThanOrEqual(innerWidth + 0.5);
    expect(control.lines, `${where}: "${control.name}" on one line`).toBe(1);
  }
}

const menuButton = (page: Page) => page.locator('header.site-header .site-menu:is(button, details > summary)').locator('visible=true');
const menuPanel = (page: Page) => page.locator('.site-menu-list').locator('visible=true');

/** Opens the narrow header's menu and checks that it holds everything the bar holds. */
async function checkMenu(page: Page, signedIn: boolean, where: string): Promise<void> {
  const button = page.locator('header.site-header .site-menu').locator('visible=true');
  await button.click();
  // The Radix popover takes the disclosure's place once loaded; open either way.
  await page.locator('button.site-menu[data-state="open"]').waitFor();
  const panel = menuPanel(page);
  await panel.waitFor();
  for (const link of ['Home', 'About', ...(signedIn ? ['Saved'] : [])]) {
    expect(await panel.getByRole('link', { name: link, exact: true }).isVisible(), `${where}: menu link ${link}`).toBe(true);
  }
  if (signedIn) {
    expect(await panel.locator('a[href="/saved"]').isVisible(), `${where}: saved recipes`).toBe(true);
    expect(await panel.getByText('Demo Cook').isVisible(), `${where}: the account's name`).toBe(true);
    expect(await panel.getByRole('button', { name: 'Sign out' }).isVisible(), `${where}: sign out`).toBe(true);
  } else {
    expect(await panel.getByRole('link', { name: 'Sign in' }).isVisible(), `${where}: sign in`).toBe(true);
  }
  expect(await panel.getByRole('button', { name: 'Colour mode' }).isVisible(), `${where}: colour mode`).toBe(true);
  expect(await panel.getByRole('searchbox', { name: 'Search recipes' }).isVisible(), `${where}: search`).toBe(true);
  for (const control of await headerControls(page, '.site-menu-list')) {
    expect(control.right, `${where}: menu's "${control.name}" inside the screen`).toBeLessThanOrEqual(
      (await page.evaluate(() => innerWidth)) + 0.5,
    );
    expect(control.lines, `${where}: menu's "${control.name}" on one line`).toBe(1);
  }
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  // Radix hands focus back in a task of its own after the panel is gone.
  await page
    .waitForFunction(() => document.activeElement?.matches('button.site-menu'), undefined, { timeout: 5000 })
    .catch(() => undefined);
  expect(await page.evaluate(() => document.activeElement?.matches('button.site-menu')), `${where}: focus back on the menu button`).toBe(
    true,
  );
}

/** On a wide screen the bar shows the search, the colour mode, and the saved recipes when signed in. */
async function checkBar(page: Page, signedIn: boolean, where: string): Promise<void> {
  const bar = page.locator('header.site-header .site-bar');
  expect(await bar.getByRole('searchbox', { name: 'Search recipes' }).isVisible(), `${where}: search`).toBe(true);
  expect(await bar.getByRole('button', { name: 'Colour mode' }).isVisible(), `${where}: colour mode`).toBe(true);
  expect(await bar.locator('a[href="/saved"]').isVisible(), `${where}: link to the saved recipes`).toBe(signedIn);
  expect(await menuButton(page).count(), `${where}: no menu button`).toBe(0);
}

describe.each([
  ['signed out', false],
  ['signed in', true],
])('every page at 320, 390, 768 and 1280 px, %s', (_state, signedIn) => {
  it.for(LAYOUT_PATHS)('%s', async (path) => {
    const answer = await fetch(`${stack.url}${path}`, { redirect: 'manual' });
    // A page, or the way to it (/saved sends a signed-out visitor to sign in).
    expect(answer.status, path).toBe(NOT_FOUND_ON_PURPOSE.has(path) ? 404 : path === '/saved' ? 302 : 200);
    const page = await chromium.newPage({ viewport: { width: WIDTHS[0]!, height: 800 } });
    if (signedIn) await signIn(page);
    for (const width of WIDTHS) {
      const where = `${path} at ${width} px, ${_state}`;
      await page.setViewportSize({ width, height: 800 });
      await gotoHydrated(page, `${stack.url}${path}`);
      await expectFits(page, where);
      if ((await page.locator('header.site-header').count()) === 0) continue; // /login (and SPEC's error page) has no layout
      // A prerendered page and an error page carry no visitor data: their header is the anonymous
      // one until personal parts are filled per visitor (issue 35).
      const showsViewer = signedIn && !WITHOUT_VIEWER.has(path);
      if (width < BAR_FROM) await checkMenu(page, showsViewer, where);
      else await checkBar(page, showsViewer, where);
    }
  });
});

describe('the layout', () => {
  it('starts with a skip link, shown on focus, that takes the keyboard to the page', async () => {
    const page = await chromium.newPage({ viewport: { width: 390, height: 800 } });
    await gotoHydrated(page, `${stack.url}/category/git`);
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const box = el.getBoundingClientRect();
      return { text: el.textContent, href: el.getAttribute('href'), top: box.top, bottom: box.bottom };
    });
    expect(skip).toMatchObject({ text: 'Skip to content', href: '#main-content' });
    expect(skip.top).toBeGreaterThanOrEqual(0);
    expect(skip.bottom).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => document.querySelector('main')?.id)).toBe('main-content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  });

  it('marks the recipe an anchor leads to with a bar at its edge, not a ring round it', async () => {
    const page = await chromium.newPage({ viewport: { width: 1024, height: 768 } });
    await gotoHydrated(page, `${stack.url}/category/git`);
    // From the keyboard, as the heavy outline appeared: the route announcer focuses the recipe.
    await page.locator('nav a[href="#find-a-regression-with-bisect"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'find-a-regression-with-bisect');
    const look = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { outline: style.outlineStyle, shadow: style.boxShadow, top: document.activeElement!.getBoundingClientRect().top };
    });
    expect(look.outline).toBe('none');
    expect(look.shadow).not.toBe('none');
    expect(look.top).toBeGreaterThanOrEqual(0);
  });

  it('prints a page without its chrome, with code wrapped', async () => {
    const page = await chromium.newPage({ viewport: { width: 1024, height: 768 }, colorScheme: 'dark' });
    await gotoHydrated(page, `${stack.url}/category/git`);
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => {
      const display = (selector: string) =>
        [...document.querySelectorAll(selector)].map((el) => `${el.tagName}.${el.className}: ${getComputedStyle(el).display}`);
      const pre = document.querySelector('[data-code-block] pre')!;
      return {
        chrome: [
          ...display('.site-header'),
          ...display('[data-layout] > footer'),
          ...display('button'),
          ...display('nav'),
          ...display('.skip-link'),
        ],
        pre: getComputedStyle(pre).whiteSpace,
        code: getComputedStyle(pre).color,
        article: getComputedStyle(document.querySelector('main article')!).display,
      };
    });
    expect(printed.chrome.length).toBeGreaterThan(4); // the header, the footer, the skip link, buttons, navs
    expect(printed.chrome.filter((shown) => !shown.endsWith(': none'))).toEqual([]);
    expect(printed.pre).toBe('pre-wrap');
    expect(printed.code).toBe('rgb(0, 0, 0)');
    expect(printed.article).not.toBe('none');
  });

  it('axe finds no serious or critical violation with the menu open, in light and dark mode', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await chromium.newPage({ viewport: { width: 390, height: 800 }, colorScheme });
      await signIn(page);
      await gotoHydrated(page, `${stack.url}/category/git`);
      await page.locator('header.site-header .site-menu').click();
      await menuPanel(page).waitFor();
      expect(await seriousViolations(page), colorScheme).toEqual([]);
    }
  });

  it('opens the menu without JavaScript: a disclosure with the navigation, search and sign-in', async () => {
    const page = await chromium.newPage({ viewport: { width: 320, height: 800 }, javaScriptEnabled: false });
    await page.goto(`${stack.url}/`);
    await expectFits(page, '/ without JavaScript');
    await page.locator('header.site-header details.site-menu > summary').click();
    const panel = menuPanel(page);
    await panel.waitFor();
    expect(await panel.getByRole('link', { name: 'About' }).isVisible()).toBe(true);
    expect(await panel.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);
    await panel.getByRole('searchbox', { name: 'Search recipes' }).fill('bisect');
    await Promise.all([page.waitForURL(/\/search\?q=bisect$/), page.keyboard.press('Enter')]);
  });
});
