/**
 * Shared by the client-runtime browser suites: Chromium through playwright-core, pages that look
 * like a person (not a crawler), and counters of what the page asked for.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launchChromium, PERSON_USER_AGENT } from '../support/chromium.js';

export const USER_AGENT = PERSON_USER_AGENT;
export const launchBrowser = launchChromium;

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Paths (with query) of every request, in order. */
  requests: string[];
  /** Full-page loads (document requests) of the main frame, as paths with query. */
  documents: string[];
  errors: string[];
  close(): Promise<void>;
}

function pathOf(request: Request): string {
  const url = new URL(request.url());
  return `${url.pathname}${url.search}`;
}

/**
 * A new context and page; `connection` fakes navigator.connection (save-data, 2g). From a
 * chromiumForFile, the tab is closed after the test that opened it.
 */
export async function openTab(
  browser: Pick<Browser, 'newContext'>,
  options: { connection?: { saveData?: boolean; effectiveType?: string }; viewport?: { width: number; height: number } } = {},
): Promise<Tab> {
  const context = await browser.newContext({ userAgent: USER_AGENT, viewport: options.viewport ?? { width: 1280, height: 800 } });
  if (options.connection) {
    await context.addInitScript((connection) => {
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
    }, options.connection);
  }
  const page = await context.newPage();
  const requests: string[] = [];
  const documents: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    requests.push(pathOf(request));
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(pathOf(request));
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, requests, documents, errors, close: () => context.close() };
}

/** Opens `url` and waits until React has hydrated it. */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated]', { timeout: 15_000 });
}

/** Leaves a mark on window: gone after a full page load, kept by client navigations. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}

export async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);
}

/** A client navigation React Router cannot tell from Back/Forward: push the URL, then popstate. */
export async function clientNavigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
