/**
 * Issue #15 item 4 in Chromium through the whole stack: every srcset candidate of the site's
 * images, asked for as the page names it, comes back at the width its `w` descriptor promises
 * (the image service snaps widths; the srcset builder asks only for snapped ones). Also prints
 * how many pixels the browser downloads per pixel shown, at 1x and 2x.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from '../support/chromium.js';
import { stackForFile } from '../support/stack.js';

const stack = stackForFile();
const chromium = chromiumForFile();

async function openPage(path: string, deviceScaleFactor = 1): Promise<Page> {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor });
  await page.goto(`${stack.url}${path}`);
  await page.waitForSelector('html[data-hydrated]', { timeout: 15_000 });
  return page;
}

interface Candidate {
  url: string;
  descriptor: string;
}

/** Every candidate of every `<img srcset>` and image preload on the page. */
function candidatesOf(page: Page): Promise<{ images: number; candidates: Candidate[] }> {
  return page.evaluate(() => {
    const sets = [
      ...[...document.querySelectorAll('img')].map((img) => img.getAttribute('srcset') ?? ''),
      ...[...document.querySelectorAll('link[rel=preload][as=image]')].map((link) => link.getAttribute('imagesrcset') ?? ''),
    ];
    const candidates = sets.flatMap((set) =>
      set
        .split(/,\s+/)
        .filter(Boolean)
        .map((entry) => {
          const [url = '', descriptor = ''] = entry.trim().split(/\s+/);
          return { url, descriptor };
        }),
    );
    return { images: document.querySelectorAll('img').length, candidates };
  });
}

/** The real size of the image at `url`, decoded by the page. */
function naturalSize(page: Page, url: string): Promise<{ width: number; height: number }> {
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    return { width: img.naturalWidth, height: img.naturalHeight };
  }, url);
}

async function expectHonest(page: Page, candidates: Candidate[]): Promise<void> {
  const seen = new Map<string, { width: number; height: number }>();
  for (const { url, descriptor } of candidates) {
    expect(descriptor, url).toMatch(/^\d+w$/);
    const size = seen.get(url) ?? (await naturalSize(page, url));
    seen.set(url, size);
    expect(`${size.width}w`, url).toBe(descriptor);
  }
}

describe('srcset candidates', () => {
  it('on the home page each comes back exactly as wide as its w descriptor', async () => {
    const page = await openPage('/');
    const { images, candidates } = await candidatesOf(page);
    // Eight category covers, each with several widths, and the first one preloaded.
    expect(images).toBeGreaterThanOrEqual(8);
    expect(candidates.length).toBeGreaterThan(images * 3);
    await expectHonest(page, candidates);
    await page.context().close();
  });

  it('on a category page each comes back exactly as wide as its w descriptor', async () => {
    const page = await openPage('/category/git');
    const { images, candidates } = await candidatesOf(page);
    // Category pages draw their icons as inline SVG; whatever <img> they carry must be honest too.
    expect(candidates.length).toBeGreaterThanOrEqual(images > 0 ? images : 0);
    await expectHonest(page, candidates);
    await page.context().close();
  });
});

describe('what the browser picks', () => {
  for (const scale of [1, 2]) {
    it(`at ${scale}x every cover it loads is as wide as the candidate it chose`, async () => {
      const page = await openPage('/', scale);
      // Covers below the fold load lazily: bring each into view, then wait for all.
      for (const img of await page.locator('img[srcset]').all()) await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));
      const loaded = await page.evaluate(() =>
        [...document.images].map((img) => {
          const chosen = (img.getAttribute('srcset') ?? '')
            .split(/,\s+/)
            .map((entry) => entry.trim().split(/\s+/))
            .find(([url]) => url && new URL(url, location.href).href === img.currentSrc);
          return { currentSrc: img.currentSrc, descriptor: chosen?.[1], shown: img.clientWidth * img.clientHeight };
        }),
      );
      // Read apart from the <img>: its naturalWidth is divided by the density the descriptor claims.
      const sizes: { width: number; height: number }[] = [];
      for (const image of loaded) sizes.push(await naturalSize(page, image.currentSrc));
      const natural = sizes.reduce((sum, size) => sum + size.width * size.height, 0);
      const shown = loaded.reduce((sum, image) => sum + image.shown, 0) * scale * scale;
      console.log(
        `home covers at ${scale}x: ${loaded.length} images, ${(natural / shown).toFixed(2)} pixels downloaded per device pixel shown`,
      );
      loaded.forEach((image, i) => {
        expect(image.descriptor, 'currentSrc is one of the srcset candidates').toBeDefined();
        expect(`${sizes[i]!.width}w`, image.currentSrc).toBe(image.descriptor);
      });
      await page.context().close();
    });
  }
});
