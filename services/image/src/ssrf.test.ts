import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.js';
import type { Resolver } from './pinned-lookup.js';
import { solidPng } from './test-support/make-fixtures.js';
import { metaOf, startImageApp, type TestImageApp } from './test-support/helpers.js';

let server: Server;
let port: number;
const hits: string[] = [];
let png: Buffer;

/** Test names resolve here; everything points at loopback or private space. */
const addresses: Record<string, string> = {
  'cdn.test': '127.0.0.1',
  'evil.test': '127.0.0.1',
  'inside.test': '10.1.2.3',
  'metadata.test': '169.254.169.254',
  'mapped.test': '::ffff:127.0.0.1',
};
const resolver: Resolver = async (hostname) => {
  const address = addresses[hostname];
  if (!address) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

beforeAll(async () => {
  png = await solidPng(120, 80);
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const to = (location: string) => res.writeHead(302, { location }).end();
    switch (req.url) {
      case '/ok.png':
        return res.writeHead(200, { 'content-type': 'image/png', etag: '"v1"' }).end(png);
      case '/same-host-redirect':
        return to('/ok.png');
      case '/to-private':
        return to(`http://inside.test:${port}/ok.png`);
      case '/to-metadata':
        return to('http://169.254.169.254/latest/meta-data/');
      case '/to-other':
        return to(`http://evil.test:${port}/ok.png`);
      case '/page.html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>blocked by WAF</html>');
      case '/huge.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300_000, 1));
      case '/slow.png':
        return; // never answers
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const env = () => ({
  IMAGE_DOMAINS: 'cdn.test,evil.test,inside.test,metadata.test,mapped.test,127.0.0.1',
  IMAGE_FETCH_TIMEOUT_MS: '400',
  IMAGE_MAX_SOURCE_BYTES: '200000',
});

describe('remote sources with the connect-time address check', () => {
  let t: TestImageApp;
  beforeAll(async () => {
    // Only 127.0.0.1 is exempted, as a stand-in for a public CDN address.
    t = await startImageApp(env(), { resolver, allowAddresses: ['127.0.0.1'] });
  });
  afterAll(() => t.close());
  const get = (url: string) => t.app.inject(`/_ipx/w_60/${url}`);

  it('fetches an allowlisted image once, then serves from the cache with no upstream request', async () => {
    hits.length = 0;
    const first = await get(`http://cdn.test:${port}/ok.png`);
    expect(first.statusCode).toBe(200);
    expect((await metaOf(first.rawPayload)).width).toBe(60);
    expect(hits).toEqual(['GET /ok.png']);
    const second = await get(`http://cdn.test:${port}/ok.png`);
    expect(second.headers['x-image-cache']).toBe('HIT');
    expect(hits).toEqual(['GET /ok.png']);
  });

  it('follows a redirect on the same host', async () => {
    expect((await get(`http://cdn.test:${port}/same-host-redirect`)).statusCode).toBe(200);
  });

  it('refuses a redirect to another host, even an allowlisted one', async () => {
    expect((await get(`http://cdn.test:${port}/to-other`)).statusCode).toBe(403);
    expect((await get(`http://cdn.test:${port}/to-metadata`)).statusCode).toBe(403);
  });

  it('refuses hosts not on the allowlist, without connecting', async () => {
    hits.length = 0;
    for (const url of [`http://other.test:${port}/ok.png`, `http://localhost:${port}/ok.png`, `http://[::1]:${port}/ok.png`]) {
      expect((await get(url)).statusCode, url).toBe(403);
    }
    expect((await get(`ftp://cdn.test/ok.png`)).statusCode).not.toBe(200);
    expect(hits).toEqual([]);
  });

  it('maps upstream trouble to 404, 413, 415, 504', async () => {
    expect((await get(`http://cdn.test:${port}/missing.png`)).statusCode).toBe(404);
    expect((await get(`http://cdn.test:${port}/huge.png`)).statusCode).toBe(413);
    expect((await get(`http://cdn.test:${port}/page.html`)).statusCode).toBe(415);
    const started = Date.now();
    expect((await get(`http://cdn.test:${port}/slow.png`)).statusCode).toBe(504);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('private addresses are refused when the socket connects', () => {
  let t: TestImageApp;
  beforeAll(async () => {
    t = await startImageApp(env(), { resolver });
  });
  afterAll(() => t.close());

  it('a name resolving to loopback, private, link-local or mapped addresses never connects', async () => {
    hits.length = 0;
    for (const host of ['evil.test', 'inside.test', 'metadata.test', 'mapped.test', 'cdn.test']) {
      const res = await t.app.inject(`/_ipx/w_60/http://${host}:${port}/ok.png`);
      expect(res.statusCode, host).toBe(403);
      expect(res.json().message).toMatch(/not a public address/);
    }
    expect(hits).toEqual([]);
  });

  it('an allowlisted IP literal that is private is refused', async () => {
    expect((await t.app.inject(`/_ipx/w_60/http://127.0.0.1:${port}/ok.png`)).statusCode).toBe(403);
    expect(hits).toEqual([]);
  });

  it('a redirect to a private address is refused', async () => {
    const exempt = await startImageApp(env(), { resolver, allowAddresses: ['127.0.0.1'] }, t.fixtures);
    try {
      const res = await exempt.app.inject(`/_ipx/w_60/http://cdn.test:${port}/to-private`);
      expect(res.statusCode).toBe(403);
    } finally {
      await exempt.close();
    }
  });
});

describe('address policy', () => {
  it('knows public from private', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
  });
});
