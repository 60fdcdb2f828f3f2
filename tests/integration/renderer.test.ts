/**
 * Issue #4 through the gateway: server rendering (whole or streamed), lazy page chunks, the layout,
 * Nuxt's route errors, JSON errors, crawlers, payloads with the build id, immutable assets, CSP and head.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { projectRoot } from '@tern/shared/config/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import { waitFor } from '../support/wait-for.js';
import { startStack, type Stack } from '../support/stack.js';
import { pageModuleUrls } from '../../bench/support/first-load-js.js';
import { DEMO, Visitor } from './site-support.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let stack: Stack;
let buildId: string;

beforeAll(async () => {
  stack = await startStack({ env: { PUBLIC_ORIGIN: 'https://cookbook.example' } });
  buildId = ((await (await fetch(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id: string }).id;
});
afterAll(() => stack?.stop());

const page = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${path}`, { headers: { 'user-agent': BROWSER, accept: 'text/html', ...headers }, redirect: 'manual' });

function inlinePayload(html: string): {
  buildId: string;
  data: Record<string, unknown>;
  errors: Record<string, { statusCode: number; statusMessage: string }> | null;
} {
  return JSON.parse(/id="__PAYLOAD__"[^>]*>([^<]*)</.exec(html)![1]!) as ReturnType<typeof inlinePayload>;
}

// The page's modules, listed for the after-paint bootstrap (entry first).
const preloads = pageModuleUrls;

describe('renderer through the gateway', () => {
  it('sends a page rendered in one pass whole, compressed with its length, with the build id the gateway publishes', async () => {
    // A page that suspends would stream (services/renderer/src/document-stream.test.ts); the
    // cookbook's render in one pass, so the renderer sends them whole and the gateway compresses
    // them in one piece (docs/decisions/renderer-ssr.md).
    const response = await page('/', { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect(response.headers.get(BUILD_ID_HEADER)).toBe(buildId);
    const html = await response.text();
    expect(html).toMatch(/<div id="root">(?:<link [^>]*>)*<div data-layout="default"/);
    expect(inlinePayload(html).buildId).toBe(buildId);
  });

  it('loads each page in its own chunk, linked only where it matches, served immutable', async () => {
    const home = preloads(await (await page(`/`)).text());
    const category = preloads(await (await page('/category/git')).text());
    const login = preloads(await (await page(`/login`)).text());
    const own = (list: string[], others: string[][]) => list.filter((href) => others.every((o) => !o.includes(href)));
    for (const [list, others] of [
      [home, [category, login]],
      [category, [home, login]],
      [login, [home, category]],
    ] as const) {
      // The page's own chunk, and chunks it shares only with pages not linked here (the recipe list of /saved).
      expect(own(list, [...others]).length).toBeGreaterThanOrEqual(1);
    }
    const asset = await fetch(`${stack.url}${own(category, [home, login])[0]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('serves assets compressed at build time, as they are: br, gzip or identity, never compressed per request', async () => {
    const entry = preloads(await (await page('/login')).text())[0]!;
    const file = join(projectRoot, 'dist', 'client', entry.replace(/^\/_nuxt\//, ''));
    for (const [accept, encoding, twin] of [
      ['br, gzip', 'br', `${file}.br`],
      ['gzip', 'gzip', `${file}.gz`],
      ['identity', null, file],
    ] as const) {
      // undici's request, unlike fetch, hands the body over as sent.
      const response = await request(`${stack.url}${entry}`, { headers: { 'accept-encoding': accept } });
      expect(response.headers['content-encoding']).toBe(encoding ?? undefined);
      expect(String(response.headers.vary)).toContain('accept-encoding');
      expect(Buffer.from(await response.body.arrayBuffer()).equals(await readFile(twin))).toBe(true);
    }
  });

  it('wraps pages in the default layout; /login opts out', async () => {
    expect(await (await page('/category/git')).text()).toContain('data-layout="default"');
    expect(await (await page('/login')).text()).not.toContain('data-layout=');
  });

  it("answers a path with no page: 404, 'Page not found: {path}'", async () => {
    const response = await page('/no/such/page');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Page Not Found');
    expect(inlinePayload(html).errors?.app).toMatchObject({ statusCode: 404, statusMessage: 'Page not found: /no/such/page' });
  });

  it("answers a failing validate: fatal 404, 'Page Not Found: {path}'", async () => {
    const response = await page('/category/Not_A_Slug');
    expect(response.status).toBe(404);
    expect(inlinePayload(await response.text()).errors?.app).toMatchObject({
      statusCode: 404,
      statusMessage: 'Page Not Found: /category/Not_A_Slug',
      fatal: true,
    });
  });

  it('answers JSON clients with the error shape', async () => {
    const response = await page('/no/such/page', { accept: 'application/json' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      url: '/no/such/page',
      statusCode: 404,
      statusMessage: 'Page not found: /no/such/page',
      message: 'Page not found: /no/such/page',
      code: 'RENDERER_PAGE_NOT_FOUND',
      data: { path: '/no/such/page' },
    });
  });

  it('logs errors met by crawlers with the user agent and answers status and a line', async () => {
    const response = await page('/category/Not_A_Slug', { 'user-agent': GOOGLEBOT });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('404 Page Not Found\n');
    // The renderer's line reaches the test through a pipe: it may arrive just after the answer.
    const lineOf = () => stack.logs('renderer').find((l) => l.includes('not rendering error page for crawler'));
    await waitFor(() => lineOf() !== undefined, 5000);
    expect(lineOf()).toContain('Googlebot/2.1');
  });

  it('serves payloads with the build id, and 404 JSON where there is no page', async () => {
    const root = await fetch(`${stack.url}/_payload.json?${buildId}`);
    expect(root.status).toBe(200);
    expect(root.headers.get(BUILD_ID_HEADER)).toBe(buildId);
    expect(((await root.json()) as { buildId: string }).buildId).toBe(buildId);
    const category = (await (await fetch(`${stack.url}/category/git/_payload.json?${buildId}`)).json()) as {
      data: Record<string, unknown>;
    };
    expect(Object.keys(category.data)).toEqual(['category-id']);
    const missing = await fetch(`${stack.url}/category/BAD_ID/_payload.json?${buildId}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404, statusMessage: 'Page Not Found: /category/BAD_ID' });
  });

  it('puts the per-request nonce on every inline script of a page it renders, and the page head', async () => {
    // A signed-in visitor's home page (it lists what they saved) is rendered for them per request;
    // pages of personal parts come from the shared cache with hashes instead (render-cache tests).
    const visitor = new Visitor(stack.url, { 'user-agent': BROWSER });
    expect((await visitor.login(DEMO.email, DEMO.password)).status).toBe(200);
    const response = await visitor.fetch('/', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'; script-src 'nonce-[^']+' 'strict-dynamic'; /);
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const html = await response.text();
    // The visitor's state, read before hydration, is one of the page's scripts.
    expect(html).toContain('<script type="application/json" id="__PERSONAL__"');
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThanOrEqual(5);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(html).toContain('<title>Cookbook</title>');
    expect(html).toContain('<link rel="canonical" href="https://cookbook.example/">');
  });
});
