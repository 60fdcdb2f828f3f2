/** Debian's Chromium through playwright-core, launched the one way this machine allows. */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { CHROMIUM_ARGS } from '../../bench/support/chromium-args.js';

/** Headless Chromium says "HeadlessChrome", which isbot counts as a crawler: look like a person. */
export const PERSON_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface ChromiumForFile {
  /** A browser context with a person's user agent unless `options` say otherwise, closed after the test. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a browser context of its own (newContext). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * Chromium for one test file: launched before its tests, closed after them; every context a test
 * opens (through `newPage`) is closed after that test.
 */
export function chromiumForFile(): ChromiumForFile {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
    if (!browser) throw new Error('chromiumForFile: a page asked for before the browser was launched');
    const context = await browser.newContext({ userAgent: PERSON_USER_AGENT, ...options });
    contexts.push(context);
    return context;
  }
  return {
    newContext,
    async newPage(options = {}) {
      return (await newContext(options)).newPage();
    },
  };
}
