/** Payload endpoints, escaping, the shell error page and the stream timeout, over the real build. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createElement, Suspense, use } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import { buildDir } from '@tern/shared/config/paths';
import { createContentRepository } from 'cookbook/content/repository';
import type { ContentFile } from 'cookbook/content/types';
import { loadSsrEntry, type SsrEntry } from '@tern/runtime/server/ssr-entry';
import { ANONYMOUS_DOCUMENT_END, BROWSER_UA, BUILD_ID, builtApp, builtReason, ssrEntryFile, type BuiltApp } from './test-support/built-app.js';

const headers = { 'user-agent': BROWSER_UA, accept: 'text/html' };
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** The real entry, with the page's React tree swapped for `element`. */
async function entryRendering(element: () => ReturnType<SsrEntry['errorElement']>): Promise<SsrEntry> {
  const real = await loadSsrEntry(ssrEntryFile);
  return {
    ...real,
    async queryPage(request, services) {
      const query = await real.queryPage(request, services);
      return query instanceof Response ? query : { ...query, element };
    },
  };
}

describe.skipIf(builtReason)('payloads', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    built = await builtApp();
  });
  afterAll(() => built?.app.close());

  it('serves the page data at {route}/_payload.json with the build id in body and header', async () => {
    for (const [url, path, routeId] of [
      [`/_payload.json?${BUILD_ID}`, '/', 'index'],
      [`/category/git/_payload.json?${BUILD_ID}`, '/category/git', 'category-id'],
    ] as const) {
      const response = await built.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers[BUILD_ID_HEADER]).toBe(BUILD_ID);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      const body = response.json<{ buildId: string; path: string; data: Record<string, unknown> }>();
      expect(body).toMatchObject({ buildId: BUILD_ID, path, errors: null });
      expect(Object.keys(body.data)).toEqual([routeId]);
    }
  });

  it('holds the same data the page inlines, the HTML the document holds in place of its reference', async () => {
    const html = (await built.app.inject({ url: '/category/git', headers })).body;
    const inline = JSON.parse(/id="__PAYLOAD__"[^>]*>([^<]*)</.exec(html)![1]!) as { data: unknown };
    const served = (await built.app.inject({ url: `/category/git/_payload.json?${BUILD_ID}` })).json<{ data: unknown }>();
    // runtime/shared/dom-html.ts: each recipe body is drawn in the document, under its key.
    const bodies: string[] = [];
    const asInlined = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(asInlined);
      if (typeof value !== 'object' || value === null) return value;
      const body = value as { key?: unknown; html?: unknown; hash?: unknown };
      if (typeof body.key === 'string' && typeof body.html === 'string' && typeof body.hash === 'string') {
        expect(html).toContain(`data-dom-html="${body.key}">${body.html}</div>`);
        bodies.push(body.key);
        return { $domHtml: body.key, hash: body.hash };
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asInlined(v)]));
    };
    expect(asInlined(served.data)).toEqual(inline.data);
    expect(bodies.length).toBeGreaterThan(1);
  });

  it('answers 404 in the error shape for a path with no page or a failing validate', async () => {
    const none = await built.app.inject({ url: `/no/such/_payload.json?${BUILD_ID}` });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({
      statusCode: 404,
      statusMessage: 'Page not found: /no/such',
      url: `/no/such/_payload.json?${BUILD_ID}`,
    });
    const invalid = await built.app.inject({ url: '/category/NOT_OK/_payload.json' });
    expect(invalid.statusCode).toBe(404);
    expect(invalid.json()).toMatchObject({ statusCode: 404, statusMessage: 'Page Not Found: /category/NOT_OK' });
  });
});

describe.skipIf(builtReason)('escaping', () => {
  it('keeps hostile content inside its script element and its text node', async () => {
    const file = JSON.parse(await readFile(join(buildDir, 'content', 'content.json'), 'utf8')) as ContentFile;
    const hostile = '</script><script>alert(1)</script><!--';
    file.categories = file.categories.map((c) => (c.id === 'git' ? { ...c, description: hostile } : c));
    const built = await builtApp({ services: { content: createContentRepository(file) } });
    try {
      const html = (await built.app.inject({ url: '/category/git', headers })).body;
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<!--</');
      const inline = JSON.parse(/id="__PAYLOAD__"[^>]*>([^<]*)</.exec(html)![1]!) as {
        data: { 'category-id': { category: { description: string } } };
      };
      expect(inline.data['category-id'].category.description).toBe(hostile);
    } finally {
      await built.app.close();
    }
  });
});

describe.skipIf(builtReason)('render failures', () => {
  it('answers a shell that fails with the 500 page, no stack and no detail in production', async () => {
    const Boom = (): never => {
      throw new Error('secret detail at render');
    };
    const built = await builtApp({ entry: await entryRendering(() => createElement(Boom)) });
    try {
      const response = await built.app.inject({ url: '/', headers });
      expect(response.statusCode).toBe(500);
      expect(response.body).toContain('Internal Server Error');
      expect(response.body).not.toContain('secret detail');
      expect(response.body).not.toMatch(/\n\s+at /);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(built.logs.some((l) => l.msg === 'page shell failed to render')).toBe(true);
      const json = await built.app.inject({ url: '/', headers: { ...headers, accept: 'application/json' } });
      expect(json.statusCode).toBe(500);
      expect(json.json()).toMatchObject({ statusCode: 500, statusMessage: 'Internal Server Error', message: 'Internal Server Error' });
    } finally {
      await built.app.close();
    }
  });

  it('aborts a render that outlives SSR_STREAM_TIMEOUT_MS, for people and crawlers alike', async () => {
    const never = new Promise<string>(() => {});
    const Waiting = () => createElement('p', null, use(never));
    const tree = () => createElement(Suspense, { fallback: createElement('p', null, 'still loading') }, createElement(Waiting));
    const built = await builtApp({ entry: await entryRendering(tree), streamTimeoutMs: 200 });
    try {
      for (const ua of [BROWSER_UA, GOOGLEBOT]) {
        const started = Date.now();
        const response = await built.app.inject({ url: '/', headers: { ...headers, 'user-agent': ua } });
        expect(Date.now() - started).toBeLessThan(2000);
        expect(response.statusCode).toBe(200);
        expect(response.body).toContain('still loading');
        expect(response.body.endsWith(ANONYMOUS_DOCUMENT_END)).toBe(true);
      }
      expect(built.logs.filter((l) => l.msg === 'render timed out; aborting the rest to the browser')).toHaveLength(2);
    } finally {
      await built.app.close();
    }
  });
});
