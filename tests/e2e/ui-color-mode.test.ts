import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COLOR_MODE_STORAGE_KEY } from '@tern/shared/config/constants';
import { FORCED_SYSTEM_WARNING } from '@tern/runtime/shared/color-mode';
import { gotoHydrated, openPage, type WatchedPage } from './fixtures/ui-harness/browser.js';
import { useHarnessSession } from './fixtures/ui-harness/session.js';

const session = useHarnessSession();

/** The class on <html> as the first script of <body> saw it (before first paint), and as the app's first module saw it. */
async function classesSeen(page: Page): Promise<{ body: string; app: string; now: string }> {
  return page.evaluate(() => {
    const w = window as unknown as { __classAtBodyStart: string; __classAtAppStart: string };
    return { body: w.__classAtBodyStart, app: w.__classAtAppStart, now: document.documentElement.className };
  });
}

async function cookie(watched: WatchedPage): Promise<string | undefined> {
  return (await watched.context.cookies()).find((c) => c.name === 'color-mode')?.value;
}

async function choose(page: Page, label: 'Light' | 'Dark' | 'System'): Promise<void> {
  await page.click('[data-color-mode-switch]');
  await page.getByRole('menuitemradio', { name: label }).click();
}

describe('colour mode', () => {
  it('follows the system on a first visit, with the class set before any app script runs', async () => {
    const watched = await openPage(session.browser, { colorScheme: 'dark' });
    const { page } = watched;
    const response = await page.goto(session.harness.url);
    expect(await response?.text()).toMatch(/<html lang="en">/);
    await page.waitForFunction(() => (window as { __hydrated?: boolean }).__hydrated === true);
    expect(await classesSeen(page)).toEqual({ body: 'dark', app: 'dark', now: 'dark' });
    expect(await cookie(watched)).toBe('system.dark');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');

    // The OS changes its mind: the page follows live.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.className === 'light');
    expect(await cookie(watched)).toBe('system.light');
    expect(watched.errors).toEqual([]);
    await watched.context.close();
  });

  it('keeps a chosen mode in localStorage and the cookie; the server renders it from the next visit', async () => {
    const watched = await openPage(session.browser, { colorScheme: 'light' });
    const { page } = watched;
    await gotoHydrated(page, session.harness.url);
    await choose(page, 'Dark');
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    expect(await page.evaluate((key) => localStorage.getItem(key), COLOR_MODE_STORAGE_KEY)).toBe('dark');
    expect(await cookie(watched)).toBe('dark.dark');

    const response = await page.reload();
    expect(await response?.text()).toMatch(/<html lang="en" class="dark">/);
    await page.waitForFunction(() => (window as { __hydrated?: boolean }).__hydrated === true);
    expect(await classesSeen(page)).toEqual({ body: 'dark', app: 'dark', now: 'dark' });

    // A new tab with only localStorage to go on (cookie gone) still paints dark first.
    await watched.context.clearCookies();
    const tab = await watched.context.newPage();
    await gotoHydrated(tab, session.harness.url);
    expect(await classesSeen(tab)).toEqual({ body: 'dark', app: 'dark', now: 'dark' });

    await choose(tab, 'System');
    await tab.waitForFunction(() => document.documentElement.className === 'light');
    expect(await tab.evaluate((key) => localStorage.getItem(key), COLOR_MODE_STORAGE_KEY)).toBe('system');
    expect(await cookie(watched)).toBe('system.light');
    await watched.context.close();
  });

  it('a page may force a mode: it wins over the preference and leaves it untouched', async () => {
    const watched = await openPage(session.browser, { colorScheme: 'light' });
    const { page } = watched;
    await gotoHydrated(page, session.harness.url);
    await choose(page, 'Dark');
    const response = await page.goto(`${session.harness.url}/?force=light`);
    expect(await response?.text()).toMatch(/<html lang="en" class="light" data-color-mode-forced="light">/);
    await page.waitForFunction(() => (window as { __hydrated?: boolean }).__hydrated === true);
    expect(await classesSeen(page)).toEqual({ body: 'light', app: 'light', now: 'light' });
    expect(await page.evaluate((key) => localStorage.getItem(key), COLOR_MODE_STORAGE_KEY)).toBe('dark');
    expect(await cookie(watched)).toBe('dark.dark');

    await gotoHydrated(page, session.harness.url);
    expect(await classesSeen(page)).toEqual({ body: 'dark', app: 'dark', now: 'dark' });
    expect(await page.getAttribute('html', 'data-color-mode-forced')).toBeNull();
    await watched.context.close();
  });

  it('forcing system logs a warning and is ignored', async () => {
    const watched = await openPage(session.browser, { colorScheme: 'dark' });
    const { page } = watched;
    await page.addInitScript(() => localStorage.setItem('color-mode', 'light'));
    const response = await page.goto(`${session.harness.url}/?force=system`);
    expect(await response?.text()).toMatch(/<html lang="en">/);
    await page.waitForFunction(() => (window as { __hydrated?: boolean }).__hydrated === true);
    await expect
      .poll(() => watched.console.filter((l) => l.text === FORCED_SYSTEM_WARNING && l.type === 'warning').length)
      .toBeGreaterThan(0);
    expect(await classesSeen(page)).toEqual({ body: 'light', app: 'light', now: 'light' });
    expect(await page.getAttribute('html', 'data-color-mode-forced')).toBeNull();
    await watched.context.close();
  });
});
