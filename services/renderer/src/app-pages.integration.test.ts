/** The renderer over its real build, through app.inject: pages, links, head, CSP, payload inline. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPageModules } from '../../../bench/support/first-load-js.js';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import { HYDRATE_AFTER_PAINT_SCRIPT, LOAD_ENTRY_SCRIPT } from './hydrate-after-paint.js';
import { ANONYMOUS_DOCUMENT_END, BROWSER_UA, BUILD_ID, builtApp, clientDir, builtReason, inlineScripts, type BuiltApp } from './test-support/built-app.js';

function payloadOf(html: string): {
  buildId: string;
  path: string;
  data: Record<string, unknown>;
  errors: Record<string, { statusCode: number; statusMessage: string }> | null;
} {
  const json = /<script type="application\/json" id="__PAYLOAD__"[^>]*>([^<]*)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error('no inline payload');
  return JSON.parse(json) as ReturnType<typeof payloadOf>;
}

/** The modules the after-paint bootstrap loads (server/hydrate-after-paint.ts), entry first. */
function pageModules(html: string): string[] {
  const modules = readPageModules(html);
  if (!modules) throw new Error('no page modules block');
  expect(modules.preload[0]).toBe(modules.entry);
  return modules.preload;
}

function attributeValues(html: string, rel: string): string[] {
  return [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)"`, 'g'))].map((m) => m[1]!);
}

describe.skipIf(builtReason)('renderer pages', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    built = await builtApp();
  });
  afterAll(() => built?.app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    built.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER_UA, accept: 'text/html', ...headers } });

  it('streams / with its content inside the root element, the build id and the payload inline', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers[BUILD_ID_HEADER]).toBe(BUILD_ID);
    expect(response.body).toMatch(/^<!DOCTYPE html>/);
    expect(/<div id="root">(?:<link [^>]*>)*<div data-layout="default"/.test(response.body)).toBe(true);
    const payload = payloadOf(response.body);
    expect(payload).toMatchObject({ buildId: BUILD_ID, path: '/', errors: null });
    expect(Object.keys(payload.data)).toEqual(['index']);
  });

  it('puts a fresh nonce on every inline script and in the CSP header', async () => {
    const [a, b] = [await get('/'), await get('/')];
    const nonce = /'nonce-([^']+)'/.exec(String(a.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(String(b.headers['content-security-policy'])).not.toContain(nonce);
    const scripts = inlineScripts(a.body);
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const script of scripts) expect(script.nonce).toBe(nonce);
    // The colour-mode script is the very first thing in <head>.
    expect(a.body).toMatch(/^<!DOCTYPE html><html[^>]*><head><script nonce=/);
    expect(a.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
  });

  it('starts the browser app after the first paint: no module preloads or module script in the head', async () => {
    const html = (await get('/')).body;
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(`>${HYDRATE_AFTER_PAINT_SCRIPT}</script>`);
    // The bootstrap waits for the hero image, which the home page marks.
    expect(html).toMatch(/<img [^>]*elementtiming="hero"/);
  });

  it('links only the matched page chunk and its imports, from the Vite manifest', async () => {
    const { manifest } = built.context;
    const chunk = (key: string) => `/_nuxt/${manifest[key]!.file}`;
    const home = pageModules((await get('/')).body);
    const category = pageModules((await get('/category/git')).body);
    expect(home).toContain(chunk('src/entry-client.tsx'));
    expect(home).toContain(chunk('../../apps/cookbook/src/app/pages/index.tsx'));
    expect(home).not.toContain(chunk('../../apps/cookbook/src/app/pages/category/[id].tsx'));
    expect(home).not.toContain(chunk('../../apps/cookbook/src/app/pages/login.tsx'));
    expect(category).toContain(chunk('../../apps/cookbook/src/app/pages/category/[id].tsx'));
    expect(category).not.toContain(chunk('../../apps/cookbook/src/app/pages/index.tsx'));
    expect(attributeValues((await get('/')).body, 'stylesheet')).toEqual(manifest['src/entry-client.tsx']!.css!.map((f) => `/_nuxt/${f}`));
  });

  it('writes the page head: title, description and the canonical URL on PUBLIC_ORIGIN', async () => {
    const html = (await get('/category/git?utm=1')).body;
    expect(html).toContain('<title>Git | Cookbook</title>');
    expect(html).toMatch(/<meta name="description" content="[^"]+">/);
    expect(html).toContain('<link rel="canonical" href="https://cookbook.example/category/git">');
  });

  it('wraps pages in the default layout, except /login which opts out', async () => {
    expect((await get('/category/git')).body).toContain('data-layout="default"');
    const login = (await get('/login')).body;
    expect(login).toContain('data-page="login"');
    expect(login).not.toContain('data-layout=');
  });

  it("shows a plain form's failure on /login, and ignores a code it does not know, Object's own names included", async () => {
    expect((await get('/login?failed=credentials')).body).toContain('Wrong email or password');
    for (const code of ['constructor', '__proto__', 'hasOwnProperty', 'nope']) {
      const response = await get(`/login?failed=${code}`);
      expect(response.statusCode, code).toBe(200);
      expect(response.body, code).toMatch(/data-form-error="">\s*<\/div>/);
    }
  });

  it("answers a path with no page with the 404 error page ('Page not found: {path}')", async () => {
    const response = await get('/no/such/page');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Page Not Found');
    expect(response.body).toContain('<title>404 - Page Not Found | Cookbook</title>');
    expect(payloadOf(response.body).errors?.app).toMatchObject({ statusCode: 404, statusMessage: 'Page not found: /no/such/page' });
  });

  it("answers a failing validate with a fatal 404 ('Page Not Found: {path}')", async () => {
    const response = await get('/category/Not_A_Slug');
    expect(response.statusCode).toBe(404);
    expect(payloadOf(response.body).errors?.app).toMatchObject({
      statusCode: 404,
      statusMessage: 'Page Not Found: /category/Not_A_Slug',
      fatal: true,
    });
    // The site's own error page, inside its layout (defineSiteApp's errorPage).
    expect(response.body).toContain('data-error-page="404"');
  });

  it('answers the error shape as JSON to a client that wants JSON', async () => {
    const response = await get('/no/such/page', { accept: 'application/json' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({
      url: '/no/such/page',
      statusCode: 404,
      statusMessage: 'Page not found: /no/such/page',
      message: 'Page not found: /no/such/page',
      code: 'RENDERER_PAGE_NOT_FOUND',
      data: { path: '/no/such/page' },
    });
  });

  it('renders the whole page for a crawler, and answers its errors with the status and a line', async () => {
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    const page = await get('/category/git', bot);
    expect(page.statusCode).toBe(200);
    expect(page.body.endsWith(ANONYMOUS_DOCUMENT_END)).toBe(true);
    // The browser learns the server's verdict, so it never draws an error page over this HTML.
    expect(page.body).toMatch(/"crawler":true/);
    expect((await get('/category/git')).body).not.toMatch(/"crawler"/);
    const error = await get('/no/such/page', bot);
    expect(error.statusCode).toBe(404);
    expect(error.body).toBe('404 Page Not Found\n');
    const line = built.logs.find((l) => l.msg === 'not rendering error page for crawler');
    expect(line).toMatchObject({ userAgent: bot['user-agent'], statusCode: 404 });
  });

  it('keeps the API and assets out of page rendering', async () => {
    const api = await get('/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/json/);
    const entry = built.context.manifest['src/entry-client.tsx']!.file;
    const asset = await get(`/_nuxt/${entry}`);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/_nuxt/missing-abc.js')).statusCode).toBe(404);
    expect((await get('/_nuxt/.vite/manifest.json')).statusCode).not.toBe(200);
  });

  it('keeps source maps in the build but never serves them', async () => {
    const entry = built.context.manifest['src/entry-client.tsx']!.file;
    expect(existsSync(join(clientDir, `${entry}.map`))).toBe(true);
    const map = await get(`/_nuxt/${entry}.map`);
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('sourcesContent');
  });

  it('names no source map and no manifest path in the browser entry (first-load bytes of every page)', async () => {
    const manifest = built.context.manifest;
    const entry = await get(`/_nuxt/${manifest['src/entry-client.tsx']!.file}`);
    expect(entry.statusCode).toBe(200);
    expect(entry.body).not.toContain('sourceMappingURL');
    const pageKey = Object.keys(manifest).find((key) => key.includes('/pages/'));
    expect(pageKey).toBeDefined();
    // The page keys' prefix (`../../apps/<site>/src/app`): only the server looks pages up in the manifest.
    expect(entry.body).not.toContain(pageKey!.slice(0, pageKey!.indexOf('/pages/')));
  });
});

describe.skipIf(builtReason)('an `ssr: false` route (the client-rendered shell)', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    built = await builtApp({ ssr: (path) => path !== '/about' });
  });
  afterAll(() => built?.app.close());

  it('answers the shell: no server HTML, no inline payload, the entry loaded at once by the inline bootstrap', async () => {
    const response = await built.app.inject({ method: 'GET', url: '/about', headers: { 'user-agent': BROWSER_UA, accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.body;
    expect(html).toMatch(/<div id="root"><\/div>/);
    expect(html).not.toContain('__PAYLOAD__');
    // Nothing to paint before the app: the bootstrap that reloads on a failed entry starts it at once.
    const entry = `/_nuxt/${built.context.manifest['src/entry-client.tsx']!.file}`;
    expect(readPageModules(html)?.entry).toBe(entry);
    expect(html).toContain(`${LOAD_ENTRY_SCRIPT}</script></body></html>`);
    expect(html).not.toContain('<script type="module"');
    // The payload is still served for the browser to fetch.
    const payload = await built.app.inject({ method: 'GET', url: '/about/_payload.json', headers: { 'user-agent': BROWSER_UA } });
    expect(payload.statusCode).toBe(200);
  });
});
