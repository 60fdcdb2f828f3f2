import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated, seriousViolations } from './site-browser.js';
import { DEMO } from '../integration/site-support.js';

const RECIPE = 'undo-last-commit';

const stack = stackForFile({ redis: false });
const chromium = chromiumForFile();

/** A person's page (chromiumForFile's user agent), in a context of its own. */
const open = (options: BrowserContextOptions = {}): Promise<Page> =>
  chromium.newPage({ viewport: { width: 1024, height: 768 }, ...options });

const toast = (page: Page, text: string) =>
  page.locator('li.ui-toast', { hasText: text }).first().waitFor({ state: 'visible', timeout: 5000 });

async function signIn(page: Page, redirect?: string): Promise<void> {
  await gotoHydrated(page, `${stack.url}/login${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await toast(page, 'Signed in as Demo Cook');
}

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`axe finds no serious or critical violation on any page in ${scheme} mode`, async () => {
      const page = await open({ colorScheme: scheme });
      for (const path of ['/', '/category/git', '/login']) {
        await gotoHydrated(page, `${stack.url}${path}`);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
        expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
      }
      await signIn(page);
      await gotoHydrated(page, `${stack.url}/`);
      expect(await seriousViolations(page), `/ signed in (${scheme})`).toEqual([]);
    });
  }

  it('would notice a violation (the check can fail)', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/login`);
    await page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('input'), { type: 'text' })));
    expect((await seriousViolations(page)).map((v) => v.id)).toContain('label');
  });

  it('reaches the login form by keyboard, with labelled fields and a visible focus ring', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/login`);
    const reached: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return { name: el.getAttribute('name') ?? el.textContent?.trim() ?? '', outline: style.outlineStyle, width: style.outlineWidth };
      });
      reached.push(focused.name);
      if (focused.name === 'email') expect(focused.outline).not.toBe('none');
    }
    expect(reached).toEqual(expect.arrayContaining(['email', 'password', 'Sign in']));
  });
});

describe('pages', () => {
  it('scrolls a recipe anchor into view', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/category/git#${RECIPE}`);
    const top = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, RECIPE);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(Math.abs(top)).toBeLessThan(120);
  });

  it('copies a code block and confirms with a toast', async () => {
    const page = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
    await gotoHydrated(page, `${stack.url}/category/git`);
    const figure = page.locator(`#${RECIPE} figure[data-code-block]`).first();
    const code = await figure.locator('pre code').innerText();
    await figure.getByRole('button', { name: 'Copy code' }).click();
    await toast(page, 'Copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  });
});

describe('accounts in the browser', () => {
  it('checks the fields in the browser, inline and in a toast, before sending', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/login`);
    let posted = 0;
    page.on('request', (request) => void (request.method() === 'POST' && posted++));
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Sign-in failed');
    await expect
      .poll(() => page.locator('[data-field-error="email"]').innerText())
      .toBe('Enter a valid email address, such as name@example.com');
    expect(await page.locator('[data-field-error="password"]').innerText()).toBe('Enter your password');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBe(0);
  });

  it('shows a wrong password inline and in a toast, and stays on the login page', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/login`);
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Wrong email or password');
    expect(await page.locator('[data-form-error]').innerText()).toBe('Wrong email or password');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('signs in, goes back to the page asked for, and signs out', async () => {
    const page = await open();
    await signIn(page, '/category/git');
    await page.waitForURL(`${stack.url}/category/git`);
    await expect.poll(() => page.locator('[data-account="signed-in"]:visible').innerText()).toContain('Demo Cook');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await toast(page, 'Signed out');
    await page.locator('[data-account="signed-out"]:visible').waitFor();
    const session = await page.evaluate(() => fetch('/api/auth/session').then((r) => r.json()));
    expect(session).toEqual({ user: null });
  });

  it('ignores a redirect to another site after login', async () => {
    const page = await open();
    await signIn(page, '//evil.example/steal');
    await page.waitForURL(`${stack.url}/`);
  });

  it('saves and unsaves a recipe with toasts, and the home page lists it', async () => {
    const page = await open();
    await signIn(page, '/category/git');
    await page.waitForURL(`${stack.url}/category/git`);
    const section = page.locator(`#${RECIPE}`);
    await section.getByRole('button', { name: /^Save/ }).click();
    await toast(page, 'Saved "');
    await section.getByRole('button', { name: /^Remove from saved/ }).waitFor();

    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${stack.url}/`);
    const saved = page.getByRole('list', { name: 'Your saved recipes' });
    await saved.getByRole('link').first().waitFor();
    await saved.getByRole('link').first().click();
    // A saved recipe links to its own page, which has the same save button.
    await page.waitForURL(new RegExp(`/recipes/${RECIPE}$`));
    const recipe = page.locator('main');
    await recipe.getByRole('button', { name: /^Remove from saved/ }).click();
    await toast(page, 'Removed "');
    await recipe.getByRole('button', { name: /^Save/ }).waitFor();
  });

  it('offers the login to an anonymous visitor who wants to save', async () => {
    const page = await open();
    await gotoHydrated(page, `${stack.url}/category/git`);
    await page
      .locator(`#${RECIPE}`)
      .getByRole('link', { name: /Sign in to save/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === `/category/git#${RECIPE}`);
  });
});
