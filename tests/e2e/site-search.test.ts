/**
 * Search in a browser (issue 31): a plain form without JavaScript; with it, results as you type in
 * the search page's box and under any other search box, `/` and Ctrl+K, and the search's code and
 * index fetched only once a search box is used. The 404 page sits in the site's layout with a
 * search form and suggestions.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated } from './site-browser.js';

const stack = stackForFile({ redis: false });
const chromium = chromiumForFile();

const SEARCH_INDEX = '/api/search/index.json';

/** Every request path the page makes from now on. */
function requestsOf(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/** The page idle after hydration: its idle-time work done, so whatever it would fetch unasked is fetched. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
  await page.waitForTimeout(1500);
  await page.waitForLoadState('networkidle');
}

describe('search without JavaScript', () => {
  it('the form submits to /search and the results mark the words', async () => {
    const page = await chromium.newPage({ javaScriptEnabled: false });
    await page.goto(`${stack.url}/search`);
    await page.fill('form[role=search] input[name=q]', 'bisect');
    await Promise.all([page.waitForURL(/\/search\?q=bisect$/), page.press('form[role=search] input[name=q]', 'Enter')]);
    const first = page.locator('#search-output a[href^="/recipes/"]').first();
    expect(await first.getAttribute('href')).toBe('/recipes/find-a-regression-with-bisect');
    expect((await page.locator('#search-output mark').allTextContents()).map((t) => t.toLowerCase())).toContain('bisect');
  });
});

describe('search with JavaScript', () => {
  it('loads nothing of the search until a search box is used, then shows results as you type', async () => {
    const page = await chromium.newPage();
    const requests = requestsOf(page);
    await gotoHydrated(page, `${stack.url}/search`);
    await settle(page);
    expect(requests.filter((path) => path === SEARCH_INDEX || /\/(browser-index|live-search)-/.test(path))).toEqual([]);
    const box = page.locator('#search-page-q');
    await box.click();
    await box.pressSequentially('bisekt', { delay: 20 });
    // One typo forgiven, live: the page did not navigate.
    await page.locator('#search-output a[href="/recipes/find-a-regression-with-bisect"]').waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(requests.filter((path) => path === SEARCH_INDEX)).toHaveLength(1);
    await box.fill('');
    await box.pressSequentially('on conflict', { delay: 20 });
    await page.waitForFunction(() =>
      document.querySelector('#search-output a[href^="/recipes/"]')?.getAttribute('href')?.includes('upsert'),
    );
  });

  it('a search box outside the search page lists results under it; arrows and Enter open one', async () => {
    const page = await chromium.newPage();
    const requests = requestsOf(page);
    // The 404 page's form stands for the header's: the same markup (form[role=search], input q).
    const response = await page.goto(`${stack.url}/recipes/undo-the-last-comit`);
    expect(response?.status()).toBe(404);
    await settle(page);
    expect(requests).not.toContain(SEARCH_INDEX);
    const box = page.locator('#error-page-q');
    await box.fill('');
    await box.pressSequentially('bisect', { delay: 20 });
    const list = page.getByRole('listbox', { name: 'Matching recipes' });
    await list.locator('a[href="/recipes/find-a-regression-with-bisect"]').waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBeTruthy();
    await Promise.all([page.waitForURL(/\/recipes\/find-a-regression-with-bisect$/), box.press('Enter')]);
    await page.locator('h1', { hasText: /bisect/i }).waitFor();
    expect(await list.isHidden()).toBe(true);
  });

  it('/ and Ctrl+K focus the search box', async () => {
    const page = await chromium.newPage();
    await gotoHydrated(page, `${stack.url}/search?q=git`);
    await settle(page);
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    await page.locator('h1').click();
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.id === 'search-page-q');
    // `/` focused the box and was not typed into it.
    expect(await page.inputValue('#search-page-q')).toBe('git');
    await page.locator('h1').click();
    expect(await focused()).not.toBe('search-page-q');
    await page.keyboard.press('Control+k');
    await page.waitForFunction(() => document.activeElement?.id === 'search-page-q');
  });
});

describe('the 404 page', () => {
  it('is in the layout, with a search form and a search for the words of the path', async () => {
    const page = await chromium.newPage();
    const response = await page.goto(`${stack.url}/recipes/undo-the-last-comit`);
    expect(response?.status()).toBe(404);
    expect(await page.title()).toMatch(/^404 - Page Not Found/);
    expect(await page.locator('header').count()).toBeGreaterThan(0);
    expect(await page.locator('nav').count()).toBeGreaterThan(0);
    expect(await page.inputValue('#error-page-q')).toBe('undo the last comit');
    const suggestion = page.locator('[data-suggested-search]');
    expect(await suggestion.getAttribute('href')).toBe('/search?q=undo+the+last+comit');
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
    await Promise.all([page.waitForURL(/\/search\?q=/), suggestion.click()]);
    await page.locator('#search-output a[href^="/recipes/"]').first().waitFor();
  });
});
