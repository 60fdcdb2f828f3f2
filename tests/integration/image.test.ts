/** Issue #7 through the gateway: a public image resized to webp, with its caching and safety headers. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPublicDir } from '@tern/shared/config/paths';
import { startStack, type Stack } from '../support/stack.js';

let stack: Stack;
let image: string;

/** The first raster image the site ships under public/images. */
async function findPublicImage(dir: string): Promise<string | undefined> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = await findPublicImage(path);
      if (found) return found;
    } else if (/\.(jpe?g|png|webp)$/i.test(entry.name)) return path;
  }
  return undefined;
}

beforeAll(async () => {
  const publicDir = defaultPublicDir;
  const found = await findPublicImage(join(publicDir, 'images'));
  if (!found) throw new Error('no image under public/images');
  image = found.slice(publicDir.length).split('\\').join('/');
  stack = await startStack({ redis: false });
});
afterAll(() => stack?.stop());

describe('images through the gateway', () => {
  it('resizes a public image to webp with validators, Cache-Control and a CSP', async () => {
    const response = await fetch(`${stack.url}/_ipx/w_320${image}`, { headers: { accept: 'image/avif,image/webp,*/*' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('etag')).toMatch(/^W\/"/);
    expect(response.headers.get('last-modified')).toBeTruthy();
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 320]);

    const again = await fetch(`${stack.url}/_ipx/w_320${image}`, { headers: { 'if-none-match': response.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('negotiates f_auto and keeps @nuxt/image URL shapes', async () => {
    const response = await fetch(`${stack.url}/_ipx/f_auto&q_75&s_200x200${image}`, { headers: { accept: 'image/webp,*/*' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('vary')).toMatch(/Accept/i);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
  });

  it('refuses bad modifiers, traversal and unknown hosts in the JSON error shape', async () => {
    const cases: Array<[string, number[]]> = [
      [`/_ipx/w_abc${image}`, [400]],
      [`/_ipx/w_100/images/no-such-file.jpg`, [404]],
      // The gateway's proxy already refuses an encoded `../` (400); the service itself answers 403.
      [`/_ipx/_/..%2f..%2fpackage.json`, [400, 403]],
      [`/_ipx/w_100/https://example.com/a.png`, [403]],
    ];
    for (const [path, statuses] of cases) {
      const response = await fetch(`${stack.url}${path}`, { headers: { accept: 'application/json' } });
      expect(statuses, path).toContain(response.status);
      expect(await response.json()).toMatchObject({ statusCode: response.status });
    }
    const direct = await fetch(`${stack.serviceUrl('image')}/_ipx/_/..%2f..%2fpackage.json`);
    expect(direct.status).toBe(403);
  });

  it('the image service is ready with a writable cache', async () => {
    const response = await fetch(`${stack.serviceUrl('image')}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ checks: { cache: 'ok' } });
  });
});
