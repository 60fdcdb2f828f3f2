/**
 * The accounts' forms as plain HTML (server/auth/plain-forms.ts), in Chromium with JavaScript off:
 * sign-in, sign-out and the save button post, the server answers with where to go, and neither
 * password nor email appears in a URL. The same path serves a click before the page has hydrated.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from 'cookbook/server/auth/demo-account';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';

// Room for a busy machine: signed-in pages here must show their personal parts, which past the
// 50 ms default would be served anonymous (docs/decisions/personal-holes.md).
const stack = stackForFile({ redis: false });
const chromium = chromiumForFile();

async function signInWithoutJavaScript(password: string, tab?: Page) {
  const page = tab ?? (await chromium.newPage({ javaScriptEnabled: false }));
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  const first = await page.goto(`${stack.url}/saved`);
  expect(first?.url()).toBe(`${stack.url}/login?redirect=%2Fsaved`);
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { page, urls };
}

describe('accounts without JavaScript', () => {
  it('lands on the page asked for, signed in', async () => {
    const { page, urls } = await signInWithoutJavaScript(DEMO_PASSWORD);
    expect(page.url()).toBe(`${stack.url}/saved`);
    expect(await page.textContent('[data-page="saved"]')).toContain('Demo Cook');
    expect(urls.filter((url) => url.includes(encodeURIComponent(DEMO_PASSWORD)) || url.includes('password='))).toEqual([]);
  });

  it('comes back to the form with the reason and the email typed after a wrong password', async () => {
    const { page, urls } = await signInWithoutJavaScript('not the password');
    expect(page.url()).toBe(`${stack.url}/login?redirect=%2Fsaved&failed=credentials`);
    expect(await page.getByRole('alert').textContent()).toBe('Wrong email or password');
    expect(await page.getByLabel('Email').inputValue()).toBe(DEMO_EMAIL);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(urls.filter((url) => url.includes('password=') || url.includes(encodeURIComponent(DEMO_EMAIL)))).toEqual([]);
  });

  it('serves a click made before the page has hydrated the same way', async () => {
    const page = await chromium.newPage();
    // The entry never arrives: the page stays the server's HTML, as in its first frames.
    await page.route(/\/_nuxt\/entry-client-[^/]+\.js$/, () => undefined);
    await page.goto(`${stack.url}/login?redirect=%2Fsaved`);
    await page.getByLabel('Email').fill(DEMO_EMAIL);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await Promise.all([page.waitForURL(`${stack.url}/saved`), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(await page.textContent('[data-page="saved"]')).toContain('Demo Cook');
  });

  it('signs out from the header, staying on a public page and leaving a private one for the home page', async () => {
    const { page } = await signInWithoutJavaScript(DEMO_PASSWORD);
    const signOut = () => Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign out' }).click()]);
    await signOut();
    expect(page.url()).toBe(`${stack.url}/`);
    expect(await page.locator('[data-account]:visible').getAttribute('data-account')).toBe('signed-out');

    await signInWithoutJavaScript(DEMO_PASSWORD, page);
    await page.goto(`${stack.url}/category/git?sort=new`);
    await signOut();
    expect(page.url()).toBe(`${stack.url}/category/git?sort=new`);
    expect(await page.locator('[data-account]:visible').getAttribute('data-account')).toBe('signed-out');
  });

  it('saves a recipe and removes it again with the save button, back at the recipe each time', async () => {
    const { page } = await signInWithoutJavaScript(DEMO_PASSWORD);
    await page.goto(`${stack.url}/category/git`);
    const first = page.locator('[data-save]').first();
    const recipeId = await first.evaluate((button) => button.closest('[id]')?.id ?? '');
    expect(recipeId).not.toBe('');
    const button = () => page.locator(`[id="${recipeId}"] [data-save]`).first();
    expect(await button().getAttribute('data-save')).toBe('not-saved');

    await Promise.all([page.waitForNavigation(), button().click()]);
    expect(page.url()).toBe(`${stack.url}/category/git#${recipeId}`);
    expect(await button().getAttribute('data-save')).toBe('saved');
    await page.goto(`${stack.url}/saved`);
    // The saved list links each recipe to its own page.
    expect(await page.locator(`a[href="/recipes/${recipeId}"]`).count()).toBeGreaterThan(0);

    await page.goto(`${stack.url}/category/git`);
    await Promise.all([page.waitForNavigation(), button().click()]);
    expect(await button().getAttribute('data-save')).toBe('not-saved');
  });
});
