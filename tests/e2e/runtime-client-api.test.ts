/**
 * Issue #5 in Chromium, for the runtime pieces no page of the app exercises: the HTTP client's
 * retries against an endpoint that fails on purpose (counted by the server), its base URL from
 * the app config, navigate()'s refusals and external navigation, and the async component's
 * 200 ms loading delay.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASYNC_COMPONENT_DELAY_MS } from '@tern/runtime/shared/async-component';
import { RETRY_STATUS_CODES } from '@tern/runtime/shared/http-client';
import { startRuntimeHarness, type RuntimeHarness } from './fixtures/runtime-harness/harness.js';
import { chromiumForFile } from '../support/chromium.js';
import { openTab, sleep, type Tab } from './runtime-browser.js';

let harness: RuntimeHarness;
const chromium = chromiumForFile();
let tab: Tab;
let page: Page;
const sent: string[] = [];

beforeAll(async () => {
  harness = await startRuntimeHarness();
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  tab = await openTab(chromium);
  page = tab.page;
  // What the page asked for, as the page sent it: Chromium itself retries a 408 on a reused connection.
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) sent.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  await page.goto(harness.url);
  await page.waitForSelector('html[data-ready]');
  sent.length = 0;
});

/** Calls the app's HTTP client in the page; answers the data or the error's shape. */
function call(path: string, options: { method?: string; body?: unknown; retry?: number } = {}) {
  return page.evaluate(
    async ({ path, options }) => {
      try {
        return { data: await window.__runtime.http(path, options as Parameters<typeof window.__runtime.http>[1]) };
      } catch (error) {
        const e = error as { name: string; statusCode: number; statusMessage: string; message: string };
        return { error: { name: e.name, statusCode: e.statusCode, statusMessage: e.statusMessage, message: e.message } };
      }
    },
    { path, options },
  );
}

describe('HTTP client in the browser', () => {
  it('sends relative URLs to the base URL of the app config', async () => {
    expect(await call('things')).toEqual({ data: { ok: true } });
    expect(sent).toEqual(['GET /api/things']);
  });

  it.each(RETRY_STATUS_CODES.map((s) => [s]))('retries a GET once on %i, then throws the error shape', async (status) => {
    const result = await call(`flaky?status=${status}`);
    expect(result.error).toMatchObject({
      name: 'HttpError',
      statusCode: status,
      statusMessage: 'Failed on purpose',
      message: `failed with ${status}`,
    });
    expect(sent).toEqual([`GET /api/flaky?status=${status}`, `GET /api/flaky?status=${status}`]);
  });

  it('does not retry a GET on 404 or 501', async () => {
    await call('flaky?status=404');
    await call('flaky?status=501');
    expect(sent).toEqual(['GET /api/flaky?status=404', 'GET /api/flaky?status=501']);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('does not retry %s by default', async (method) => {
    const result = await call('flaky?status=503', { method, body: { a: 1 } });
    expect(result.error?.statusCode).toBe(503);
    expect(sent).toEqual([`${method} /api/flaky?status=503`]);
  });

  it('retries as often as asked', async () => {
    await call('flaky?status=429', { method: 'POST', retry: 2 });
    expect(sent).toHaveLength(3);
  });
});

describe('navigate() in the browser', () => {
  it.each(['javascript:alert(document.domain)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'blob:http://127.0.0.1/x'])(
    'refuses %s even with external: true, and stays on the page',
    async (to) => {
      const message = await page.evaluate(async (target) => {
        try {
          await window.__runtime.navigate(target, { external: true });
          return null;
        } catch (error) {
          return (error as Error).message;
        }
      }, to);
      expect(message).toMatch(/^Cannot navigate to a URL with '\w+:' protocol\.$/);
      await sleep(200);
      expect(tab.documents).toEqual(['/']);
    },
  );

  it('refuses an external URL unless external: true, then leaves for it', async () => {
    await tab.context.route('https://example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>outside</title>' }),
    );
    const message = await page.evaluate(async () => {
      try {
        await window.__runtime.navigate('//example.com/x');
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(message).toMatch(/^Navigating to an external URL is not allowed by default/);
    await page.evaluate(() => void window.__runtime.navigate('https://example.com/away', { external: true }));
    await page.waitForURL('https://example.com/away');
  });
});

describe('async components', () => {
  /** When the loading fallback appeared, in ms after the component started loading; null if never. */
  function loadingShownAfter(loadMs: number): Promise<number | null> {
    return page.evaluate(
      (ms) =>
        new Promise<number | null>((resolve) => {
          const started = performance.now();
          let shownAt: number | null = null;
          const observer = new MutationObserver(() => {
            if (shownAt === null && document.getElementById('loading')) shownAt = performance.now() - started;
            if (document.getElementById('loaded')) {
              observer.disconnect();
              resolve(shownAt);
            }
          });
          observer.observe(document.body, { childList: true, subtree: true });
          window.__runtime.showAsync(ms);
        }),
      loadMs,
    );
  }

  it(`shows the loading fallback only after ${ASYNC_COMPONENT_DELAY_MS} ms`, async () => {
    const shown = await loadingShownAfter(600);
    expect(shown).not.toBeNull();
    expect(shown!).toBeGreaterThanOrEqual(ASYNC_COMPONENT_DELAY_MS);
    expect(shown!).toBeLessThan(ASYNC_COMPONENT_DELAY_MS + 150);
  });

  it('never shows it for a load faster than that', async () => {
    expect(await loadingShownAfter(60)).toBeNull();
  });
});
