/**
 * Issue #4 in Chromium through the gateway: every page hydrates from the server's HTML and its
 * inline payload with no console error, no hydration warning and no CSP violation; a client
 * navigation fetches one payload and updates the head without reloading.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';

const stack = stackForFile();
const chromium = chromiumForFile();

interface Visit {
  page: Page;
  status: number;
  problems: string[];
  requests: string[];
}

/** Opens `path`, waits for hydration, and keeps what went wrong on the way. */
async function visit(path: string): Promise<Visit> {
  const context = await chromium.newContext();
  // Link preloading (tests/e2e/runtime-*.test.ts) would fetch payloads of links in view: turn it
  // off the way a visitor does (save-data), so only hydration and the click are counted here.
  await context.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ saveData: true }) }),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  const documentUrl = `${stack.url}${path}`;
  page.on('console', (message: ConsoleMessage) => {
    const text = message.text();
    // Chromium reports the error page's own 404 status as a failed resource: that one is expected.
    if (message.location().url === documentUrl && text.startsWith('Failed to load resource')) return;
    if (message.type() === 'error' || message.type() === 'warning' || /hydrat/i.test(text))
      problems.push(`${message.type()}: ${text} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('request', (request) => requests.push(new URL(request.url()).pathname + new URL(request.url()).search));
  const response = await page.goto(documentUrl);
  await page.waitForSelector('html[data-hydrated]', { timeout: 10_000 });
  return { page, status: response?.status() ?? 0, problems, requests };
}

describe('hydration in Chromium', () => {
  it.each([
    ['/', 200, 'default'],
    ['/login', 200, null],
    ['/category/git', 200, 'default'],
    // The site's error page sits in its layout (issue 31).
    ['/no/such/page', 404, 'default'],
    ['/category/Not_A_Slug', 404, 'default'],
  ])('%s hydrates with no console error or hydration warning', async (path, status, layout) => {
    const { page, status: got, problems, requests } = await visit(path);
    try {
      expect(got).toBe(status);
      expect(problems).toEqual([]);
      // The inline payload served hydration: no loader ran again in the browser.
      expect(requests.filter((r) => r.includes('_payload.json'))).toEqual([]);
      expect(await page.evaluate(() => document.querySelector('[data-layout]')?.getAttribute('data-layout') ?? null)).toBe(layout);
      if (status === 404) expect(await page.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(1);
    } finally {
      await page.context().close();
    }
  });

  it('navigates on the client with one payload request and a new head, no reload', async () => {
    const { page, problems, requests } = await visit('/');
    try {
      await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
      const buildId = await page.evaluate(
        () => (JSON.parse(document.getElementById('__APP_CONFIG__')!.textContent!) as { buildId: string }).buildId,
      );
      await page.click('a[href="/category/git"]');
      await page.waitForFunction(() => document.title === 'Git | Cookbook');
      expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      expect(requests.filter((r) => r.includes('_payload.json'))).toEqual([`/category/git/_payload.json?${buildId}`]);
      expect(await page.getAttribute('link[rel="canonical"]', 'href')).toMatch(/\/category\/git$/);
      expect(await page.textContent('h1')).toBe('Git');
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
