/**
 * A cache hit is written straight to the socket (render-cache/hit-response.ts), past Fastify's
 * send path: it must still be the same answer the miss was (every header the onSend hooks add:
 * security headers, route rule headers, HSTS behind a trusted https proxy), and still get its
 * access line and its count, over real HTTP.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger, metaOf, startGateway, type TestGateway } from './test-support/upstreams.js';

const HTML = `<!DOCTYPE html><html><body>${'<p>recipe</p>'.repeat(300)}</body></html>`;
const PER_REQUEST = ['x-cache', 'age', 'x-request-id', 'date', 'keep-alive', 'connection'];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A plain HTTP/1.1 request, so the encoded bytes and headers are seen as sent. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const without = (headers: Answer['headers'], names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));

describe('a cache hit written straight to the socket', () => {
  let renderer: FastifyInstance;
  let gateway: TestGateway;
  let origin = '';
  const { logger, lines } = capturingLogger();

  beforeAll(async () => {
    renderer = Fastify();
    renderer.get('/*', async (_request, reply) =>
      reply.header('cache-control', 'no-cache').header('x-build-id', 'build-one').type('text/html; charset=utf-8').send(HTML),
    );
    const url = await renderer.listen({ port: 0, host: '127.0.0.1' });
    gateway = await startGateway(
      { RENDERER_URL: url, IMAGE_URL: url, ICONS_URL: url, TRUST_PROXY: '1' },
      metaOf('build-one', { '/page/**': { isr: true }, '/ruled/**': { isr: true, robots: false, headers: { 'x-rule': 'yes' } } }),
      logger,
    );
    origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => void lines.splice(0));
  afterAll(async () => {
    await gateway.cleanup();
    await renderer.close();
  });

  it.each(['identity', 'br'])('carries every header the miss carried, with the same bytes (%s)', async (encoding) => {
    const path = `/page/${encoding}`;
    // The first br request is answered from the identity entry (brotli is made behind it); the second is a hit.
    const miss = await get(`${origin}${path}`, { 'accept-encoding': encoding });
    if (encoding === 'br') await get(`${origin}${path}`, { 'accept-encoding': encoding });
    const hit = await get(`${origin}${path}`, { 'accept-encoding': encoding });
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.status).toBe(200);
    expect(hit.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    expect(hit.headers.age).toMatch(/^\d+$/);
    expect(hit.headers['x-content-type-options']).toBe('nosniff');
    expect(hit.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(hit.headers['content-length']).toBe(String(hit.body.length));
    // The miss's br is made on the fly, the hit's once at the best level: the lengths differ.
    const varying = encoding === 'br' ? [...PER_REQUEST, 'content-length'] : PER_REQUEST;
    expect(without(hit.headers, varying)).toEqual(without(miss.headers, varying));
    const text = encoding === 'br' ? brotliDecompressSync(hit.body).toString() : hit.body.toString();
    expect(text).toBe(HTML);
  });

  it('adds the route rules’ headers and HSTS behind a trusted https proxy, as the onSend hooks do', async () => {
    // The origin is in the key: the https page is an entry of its own.
    await get(`${origin}/ruled/a`, { 'x-forwarded-proto': 'https' });
    const hit = await get(`${origin}/ruled/a`, { 'x-forwarded-proto': 'https' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['x-rule']).toBe('yes');
    expect(hit.headers['x-robots-tag']).toBe('noindex');
    expect(hit.headers['strict-transport-security']).toMatch(/max-age=/);
    await get(`${origin}/ruled/a`);
    const plain = await get(`${origin}/ruled/a`);
    expect(plain.headers['x-cache']).toBe('HIT');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers HEAD with the length and no body, and 304 to a matching If-None-Match', async () => {
    const first = await get(`${origin}/page/head`);
    const head = await get(`${origin}/page/head`, {}, 'HEAD');
    expect(head.headers['x-cache']).toBe('HIT');
    expect(head.headers['content-length']).toBe(String(first.body.length));
    expect(head.body.length).toBe(0);
    const notModified = await get(`${origin}/page/head`, { 'if-none-match': String(first.headers.etag) });
    expect(notModified.status).toBe(304);
  });

  it('gets its access line and is counted as a hit', async () => {
    await get(`${origin}/page/logged`);
    const hit = await get(`${origin}/page/logged`);
    const id = hit.headers['x-request-id'];
    const line = lines.find((l) => l.reqId === id && l.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', path: '/page/logged', status: 200, upstream: 'cache', cache: 'HIT' });
    const metrics = await gateway.app.telemetry.metrics.registry.metrics();
    expect(metrics).toMatch(/render_cache_requests_total\{status="HIT",service="gateway"\} [1-9]/);
  });
});
