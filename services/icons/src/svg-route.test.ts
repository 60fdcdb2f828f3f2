/** `/api/_nuxt_icon/{collection}/{name}.svg`: one icon as a safe SVG document. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIconsApp } from './test-support/icons-app.js';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await startIconsApp());
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /api/_nuxt_icon/{collection}/{name}.svg', () => {
  it('answers an SVG document with safe headers, 1em high by default', async () => {
    const response = await get('/api/_nuxt_icon/lucide/house.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('public, max-age=604800, stale-while-revalidate=86400');
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1em" height="1em" viewBox="0 0 24 24">/);
    expect(response.body).toContain('<path d="M15 21v-8');
    expect(response.body.endsWith('</svg>')).toBe(true);
  });

  it('applies width and height, keeping the aspect ratio when only one is given', async () => {
    expect((await get('/api/_nuxt_icon/lucide/house.svg?width=48')).body).toContain('width="48" height="48"');
    expect((await get('/api/_nuxt_icon/lucide/house.svg?width=2em&height=32px')).body).toContain('width="2em" height="32px"');
    const auto = (await get('/api/_nuxt_icon/lucide/house.svg?height=auto')).body;
    expect(auto).toContain('width="24" height="24"');
  });

  it('resolves aliases', async () => {
    const response = await get('/api/_nuxt_icon/lucide/activity-square.svg');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<svg');
  });

  it('answers 304 for a matching ETag, and the size is part of the ETag', async () => {
    const first = await get('/api/_nuxt_icon/lucide/house.svg?width=48');
    const again = await get('/api/_nuxt_icon/lucide/house.svg?width=48', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    const other = await get('/api/_nuxt_icon/lucide/house.svg?width=64', { 'if-none-match': String(first.headers.etag) });
    expect(other.statusCode).toBe(200);
  });

  it('refuses sizes that could inject markup, and bad names', async () => {
    for (const query of ['width=%22%20onload=%22alert(1)', 'height=-1', 'width=1e9', 'width=12345', 'width=10vw', 'width=a&width=b']) {
      const response = await get(`/api/_nuxt_icon/lucide/house.svg?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).not.toContain('<svg');
    }
    for (const name of ['House', 'constructor', '__proto__', '..%2fhouse', 'a'.repeat(65)]) {
      const response = await get(`/api/_nuxt_icon/lucide/${name}.svg`);
      expect([400, 404], name).toContain(response.statusCode);
      expect(response.headers['content-type']).toContain('application/json');
    }
  });

  it('answers 404 for an unknown icon or collection', async () => {
    expect((await get('/api/_nuxt_icon/lucide/no-such-icon.svg')).statusCode).toBe(404);
    expect((await get('/api/_nuxt_icon/no-such-set/house.svg')).statusCode).toBe(404);
  });
});
