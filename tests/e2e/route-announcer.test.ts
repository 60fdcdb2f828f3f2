/**
 * Client navigation for keyboard and screen-reader users (issue 15): the new page's title in a
 * polite live region and focus on its main heading, or on the hash target.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, PERSON_USER_AGENT } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';
import { gotoHydrated } from './site-browser.js';

const stack = stackForFile({ redis: false });
// One page for the whole file: each test goes on from where the one before left it.
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ userAgent: PERSON_USER_AGENT });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
});

const focused = () => page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent?.trim() }));
const announced = () => page.textContent('[data-route-announcer]');

describe('route announcer and focus', () => {
  it('announces nothing and keeps focus where it is on the first load', async () => {
    await gotoHydrated(page, `${stack.url}/`);
    expect(await announced()).toBe('');
  });

  it('after Enter on a link: announces the new title and focuses the main heading', async () => {
    await page.getByRole('link', { name: 'About' }).first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/about`);
    await page.waitForFunction(() => document.querySelector('[data-route-announcer]')?.textContent === document.title);
    expect(await announced()).toBe('About | Cookbook');
    expect(await focused()).toEqual({ tag: 'H1', text: 'About this cookbook' });
  });

  it('focuses the hash target when the address has one', async () => {
    await page.getByRole('link', { name: 'Git' }).first().click();
    await page.waitForURL(`${stack.url}/category/git`);
    // The address changes before the page renders; focus moves once it has.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect((await focused()).tag).toBe('H1');
    const link = page.locator('main a.ui-button-soft[href^="#"]').first();
    const id = (await link.getAttribute('href'))!.slice(1);
    await link.click();
    await page.waitForFunction((target) => document.activeElement?.id === target, id);
    expect(await page.evaluate(() => location.hash)).toBe(`#${id}`);
  });
});
