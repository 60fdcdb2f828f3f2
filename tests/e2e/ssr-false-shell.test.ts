/**
 * The `ssr: false` route rule in Chromium. No page of the site uses it, so the renderer runs over
 * the real build with a rule of the test's own (`/about` client-rendered): the browser gets the
 * empty shell, fetches the page's payload, renders the page with its head, and navigates on. An
 * entry that does not load reloads the shell once, since an empty shell has nothing to fall back on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELOAD_MARKER_KEY } from '@tern/runtime/shared/reload-guard';
import { builtApp, builtReason, type BuiltApp } from '../../services/renderer/src/test-support/built-app.js';
import { chromiumForFile } from '../support/chromium.js';

let built: BuiltApp;
let origin: string;
const chromium = chromiumForFile();

beforeAll(async () => {
  built = await builtApp({ ssr: (path) => path !== '/about', publicOrigin: undefined });
  origin = await built.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await built?.app.close();
});

describe.skipIf(builtReason)('an ssr: false page in the browser', () => {
  it('renders from the shell and its payload, then navigates on the client', async () => {
    const page = await chromium.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const payloads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('_payload.json')) payloads.push(new URL(request.url()).pathname);
    });

    const shell = await page.goto(`${origin}/about`);
    expect(await shell?.text()).toMatch(/<div id="root"><\/div>/);
    await page.locator('main h1').first().waitFor();
    expect(await page.title()).toContain('About');
    expect(payloads).toContain('/about/_payload.json');

    await page.getByRole('link', { name: 'Home' }).first().click();
    await page.waitForURL(`${origin}/`);
    await page.locator('[data-recipe-count]').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('reloads the shell once when its entry does not load, then renders', async () => {
    const page = await chromium.newPage();
    let failures = 1;
    await page.route(/\/_nuxt\/entry-client-[^/]+\.js$/, (route) => (failures-- > 0 ? route.abort('failed') : route.continue()));
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) documents.push(new URL(request.url()).pathname);
    });
    await page.goto(`${origin}/about`, { waitUntil: 'commit' });
    await page.locator('main h1').first().waitFor();
    expect(documents).toEqual(['/about', '/about']);
    const marker = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null'), RELOAD_MARKER_KEY);
    expect(marker).toMatchObject({ path: '/about' });
  });
});
