/**
 * Issue #15 item 8 in Chromium through the whole stack: the site's API calls go through the
 * framework's HTTP client (JSON both ways, the error body's message, no retry of a POST as
 * docs/spec.md §7 says), and its programmatic moves through `navigate()` (a client navigation in
 * the same document, replacing the entry where Back should not return).
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated, markDocument, openTab, sameDocument, type Tab } from './runtime-browser.js';
import { DEMO } from '../integration/site-support.js';

const stack = stackForFile();
const chromium = chromiumForFile();

/** A tab (closed after the test) on `path`, hydrated. */
async function openAt(path: string): Promise<Tab> {
  const tab = await openTab(chromium);
  await gotoHydrated(tab.page, `${stack.url}${path}`);
  return tab;
}

const open = async (path: string): Promise<Page> => (await openAt(path)).page;

const toast = (page: Page, text: string) =>
  page.locator('li.ui-toast', { hasText: text }).first().waitFor({ state: 'visible', timeout: 5000 });

async function fillLogin(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
}

/** Follows a link of the page as a visitor would, without a full load. */
async function follow(page: Page, href: string, path = href.split('?')[0]!): Promise<void> {
  await page.locator(`a[href="${href}"]`).first().click();
  await page.waitForFunction((p) => location.pathname === p && !document.querySelector('[aria-busy="true"].min-h-screen'), path);
}

describe('API calls through the HTTP client', () => {
  it('sends JSON with JSON accept, does not retry a POST answered 503, and shows the error body', async () => {
    const page = await open('/login');
    const posts: Request[] = [];
    await page.route('**/api/auth/login', async (route) => {
      posts.push(route.request());
      await route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
        body: JSON.stringify({
          url: '/api/auth/login',
          statusCode: 503,
          statusMessage: 'Service Unavailable',
          message: 'Sign-in is paused for a moment.',
        }),
      });
    });
    await fillLogin(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Sign-in failed');
    await page.locator('[data-form-error]', { hasText: 'Sign-in is paused for a moment.' }).waitFor();
    // The client would have retried at once (no delay): the error shows only after any retry.
    expect(posts.length).toBe(1);
    const headers = posts[0]!.headers();
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers.accept).toMatch(/application\/json/);
    expect(posts[0]!.postDataJSON()).toEqual(DEMO);
  });

  it('says the site could not be reached when there is no answer at all', async () => {
    const page = await open('/login');
    await page.route('**/api/auth/login', (route) => route.abort('internetdisconnected'));
    await fillLogin(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-form-error]', { hasText: 'could not be reached' }).waitFor();
    expect(page.url()).toContain('/login');
  });
});

describe('programmatic moves through navigate()', () => {
  it('after sign-in: to the page asked for in the same document, and Back does not return to the login', async () => {
    const tab = await openAt('/');
    const { page } = tab;
    await markDocument(page);
    await follow(page, '/category/git');
    await follow(page, '/login?redirect=%2Fcategory%2Fgit', '/login');
    await fillLogin(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(() => location.pathname === '/category/git' && document.querySelector('[data-account="signed-in"]'));
    expect(await sameDocument(page)).toBe(true);
    expect(tab.documents).toEqual(['/']);
    await page.goBack();
    // React Router numbers the entries: '/' 0, '/category/git' 1, then the login's entry 2.
    await page.waitForFunction(() => (history.state as { idx?: number } | null)?.idx === 1);
    // The login entry was replaced: Back goes to the category page the visitor came from.
    expect(new URL(page.url()).pathname).toBe('/category/git');
    expect(await sameDocument(page)).toBe(true);
  });

  it('sign-out on a signed-in-only page goes home in the same document, replacing the entry', async () => {
    const page = await open('/login');
    await fillLogin(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Signed in as');
    await gotoHydrated(page, `${stack.url}/about`);
    await gotoHydrated(page, `${stack.url}/saved`);
    await page.locator('[data-page="saved"]').waitFor();
    await markDocument(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await toast(page, 'Signed out');
    await page.waitForFunction(() => location.pathname === '/' && document.querySelector('[data-account="signed-out"]'));
    expect(await sameDocument(page)).toBe(true);
    await page.goBack();
    // /saved was replaced by the home page: Back leaves for the page before it.
    await page.waitForURL(`${stack.url}/about`);
  });

  it('sign-out elsewhere stays on the page, now anonymous', async () => {
    const page = await open('/login?redirect=%2Fcategory%2Fgit');
    await fillLogin(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(() => location.pathname === '/category/git' && document.querySelector('[data-save="not-saved"]'));
    await markDocument(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('[data-account="signed-out"]:visible').waitFor();
    await page.locator('[data-save="anonymous"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/category/git');
    expect(await sameDocument(page)).toBe(true);
  });
});
