import { describe, expect, it } from 'vitest';
import { ICON_FETCH_TIMEOUT_MS } from '@tern/runtime/browser/icons-loader';
import { gotoHydrated, openPage } from './fixtures/ui-harness/browser.js';
import { useHarnessSession } from './fixtures/ui-harness/session.js';

const session = useHarnessSession();

function reset(): void {
  session.harness.iconRequests.length = 0;
  session.harness.publicIconRequests.length = 0;
  session.harness.setIconMode('ok');
}

describe('icons', () => {
  it('bundled icons are inline SVG in the server HTML; late ones keep an empty box', async () => {
    const html = await (await fetch(session.harness.url)).text();
    expect(html).toMatch(/<svg[^>]*data-icon="lucide:x"[^>]*>.*?<path/);
    expect(html).toMatch(/<svg[^>]*data-icon="lucide:sun"/);
    expect(html).toMatch(/<span[^>]*data-icon="mdi:home"[^>]*data-icon-state="loading"/);
    expect(html).not.toMatch(/<svg[^>]*data-icon="mdi:home"/);
  });

  it('fetches late icons in one request per collection, hydrates with no mismatch, logs a missing icon once', async () => {
    reset();
    const { page, console: lines, errors, context } = await openPage(session.browser);
    await gotoHydrated(page, session.harness.url);
    await page.waitForSelector('svg[data-icon="mdi:home"]');
    await page.waitForSelector('svg[data-icon="tabler:star"]');
    await page.waitForSelector('[data-icon="mdi:definitely-not-an-icon"][data-icon-state="missing"]');
    expect(session.harness.iconRequests.sort()).toEqual([
      '/api/_nuxt_icon/mdi.json?icons=account,definitely-not-an-icon,home',
      '/api/_nuxt_icon/tabler.json?icons=star',
    ]);
    expect(session.harness.publicIconRequests).toEqual([]);
    const missing = lines.filter((l) => l.text.includes('mdi:definitely-not-an-icon'));
    expect(missing).toHaveLength(1);
    expect(missing[0]?.type).toBe('warning');
    const box = await page.locator('[data-icon="mdi:definitely-not-an-icon"]').first().boundingBox();
    expect(box?.width).toBeGreaterThan(20);
    expect(box?.height).toBeGreaterThan(20);
    expect(lines.filter((l) => l.type === 'error')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('falls back to the public API when the local service answers 503', async () => {
    reset();
    session.harness.setIconMode('fail');
    const { page, context } = await openPage(session.browser);
    await gotoHydrated(page, session.harness.url);
    await page.waitForSelector('svg[data-icon="mdi:home"]');
    expect(session.harness.iconRequests).toHaveLength(2);
    expect(session.harness.publicIconRequests.sort()).toEqual([
      '/mdi.json?icons=account,definitely-not-an-icon,home',
      '/tabler.json?icons=star',
    ]);
    await context.close();
  });

  it(`falls back after ${ICON_FETCH_TIMEOUT_MS} ms when the local service is slow`, async () => {
    reset();
    session.harness.setIconMode('slow');
    const { page, context } = await openPage(session.browser);
    await gotoHydrated(page, session.harness.url);
    const started = Date.now();
    await page.waitForSelector('svg[data-icon="mdi:home"]');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThan(ICON_FETCH_TIMEOUT_MS - 300);
    expect(waited).toBeLessThan(2400);
    expect(session.harness.publicIconRequests).toHaveLength(2);
    await context.close();
  });
});

describe('images', () => {
  it('server HTML preloads the hero with its srcset; img tags carry sizes, dimensions and loading', async () => {
    const html = await (await fetch(session.harness.url)).text();
    const link = html.match(/<link[^>]*rel="preload"[^>]*as="image"[^>]*>/)?.[0] ?? '';
    expect(link).toMatch(/fetchPriority="high"/i);
    expect(link).toMatch(/imageSrcSet="[^"]*\/_ipx\/s_320x180,f_webp\/photos\/hero\.jpg 320w/i);
    expect(link).toMatch(/imageSizes="100vw"/i);
    const { page, context } = await openPage(session.browser);
    await gotoHydrated(page, session.harness.url);
    const hero = await page.locator('#hero').evaluate((img: HTMLImageElement) => ({
      src: img.getAttribute('src'),
      srcset: img.getAttribute('srcset'),
      sizes: img.sizes,
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      loading: img.loading,
      priority: img.getAttribute('fetchpriority'),
    }));
    expect(hero).toMatchObject({
      src: '/_ipx/s_3072x1728,f_webp/photos/hero.jpg',
      sizes: '100vw',
      width: '1280',
      height: '720',
      loading: 'eager',
      priority: 'high',
    });
    expect(hero.srcset?.split(', ').map((e) => e.split(' ')[1])).toEqual([
      '320w',
      '640w',
      '768w',
      '1024w',
      '1280w',
      '1536w',
      '2048w',
      '2560w',
      '3072w',
    ]);
    const thumb = await page.locator('#thumb').evaluate((img: HTMLImageElement) => ({
      srcset: img.getAttribute('srcset'),
      sizes: img.getAttribute('sizes'),
      loading: img.loading,
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
    }));
    expect(thumb).toEqual({
      // 200 px at 1x and 2x, asked for at the widths the service snaps them to (320, 448).
      srcset: '/_ipx/s_320x240,f_webp,q_70/photos/thumb%20one.png 320w, /_ipx/s_448x336,f_webp,q_70/photos/thumb%20one.png 448w',
      sizes: '200px',
      loading: 'lazy',
      width: '200',
      height: '150',
    });
    await context.close();
  });
});
