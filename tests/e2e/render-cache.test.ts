/**
 * Cached and prerendered pages in Chromium: each hydrates with no warning, no error and no CSP
 * violation (the after-paint bootstrap included); the private /saved page sends anonymous visitors
 * to the login and back; signing in and out works on pages served from the cache.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated } from './site-browser.js';
import { DEMO } from '../integration/site-support.js';

// Room for a busy machine: a signed-in page here must show its personal parts, which past the
// 50 ms default would be served anonymous (docs/decisions/personal-holes.md; that fallback is
// tests/e2e/personal-holes.test.ts's).
const stack = stackForFile({ redis: false });
let problems: string[];
const chromium = chromiumForFile();

/** A person's page that records every console warning or error, page error and CSP violation. */
async function open(): Promise<Page> {
  problems = [];
  const page = await chromium.newPage({ viewport: { width: 1024, height: 768 } });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return page;
}

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('pages from the render cache in the browser', () => {
  it('hydrates a cached category page, the home page and the prerendered About page cleanly', async () => {
    const page = await open();
    for (const path of ['/category/git', '/', '/about']) {
      // The first load sets the colour-mode cookie, part of the key: the second is a hit.
      await gotoHydrated(page, `${stack.url}${path}`);
      const response = await page.goto(`${stack.url}${path}`);
      expect(response?.headers()['x-cache'], path).toBe('HIT');
      await gotoHydrated(page, `${stack.url}${path}`);
    }
    // A client navigation from a cached page, through its cached payload.
    await page.getByRole('link', { name: 'Home' }).first().click();
    await page.waitForURL(`${stack.url}/`);
    expect(problems).toEqual([]);
  });

  it('sends an anonymous visitor of the private /saved page to the login and back', async () => {
    const page = await open();
    const login = await page.goto(`${stack.url}/saved`);
    expect(await login?.text()).not.toContain('Saved recipes');
    await page.waitForURL(`${stack.url}/login?redirect=%2Fsaved`);
    await signIn(page);
    await page.waitForURL(`${stack.url}/saved`);
    await page.getByRole('heading', { name: 'Saved recipes' }).waitFor();
    expect(await page.title()).toContain('Saved recipes');
    expect(await page.textContent('[data-page="saved"]')).toContain('Demo Cook');
    expect(problems).toEqual([]);
  });

  it('signs in and out on a cached page: the cached entry with their own parts (private), then the plain cached one', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/login?redirect=%2Fcategory%2Fshell`);
    await signIn(page);
    await page.waitForURL(`${stack.url}/category/shell`);
    const mine = await page.reload();
    // The shared entry with the visitor's personal parts spliced in (docs/decisions/personal-holes.md).
    expect(mine?.headers()['x-cache']).toBe('HIT');
    expect(mine?.headers()['cache-control']).toBe('private, no-cache');
    await page.getByRole('button', { name: /Save/ }).first().waitFor();
    await page.context().clearCookies({ name: 'cookbook_session' });
    const anonymous = await page.reload();
    expect(anonymous?.headers()['x-cache']).toMatch(/^(HIT|MISS)$/);
    expect(problems).toEqual([]);
  });
});

describe('colour mode without JavaScript', () => {
  it.each([
    ['dark', 'rgb(15, 23, 42)'],
    ['light', 'rgb(255, 255, 255)'],
  ] as const)('follows the operating system (%s) on a first visit, cached page included', async (scheme, background) => {
    const page = await chromium.newPage({ javaScriptEnabled: false, colorScheme: scheme });
    for (const path of ['/category/git', '/about']) {
      await page.goto(`${stack.url}${path}`);
      expect(await page.evaluate(() => document.documentElement.className)).toBe('');
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), path).toBe(background);
    }
  });
});
