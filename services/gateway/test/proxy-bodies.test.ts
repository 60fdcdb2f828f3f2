import Fastify, { type FastifyInstance } from 'fastify';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../tests/support/raw-http.js';
import { metaOf, startGateway, type TestGateway } from './upstreams.js';

describe('request bodies through the gateway', () => {
  let upstream: FastifyInstance, gateway: TestGateway, port: number;

  beforeAll(async () => {
    upstream = Fastify();
    upstream.post('/*', async (request) => ({ got: request.body }));
    const url = await upstream.listen({ port: 0, host: '127.0.0.1' });
    gateway = await startGateway({ RENDERER_URL: url, IMAGE_URL: url, ICONS_URL: url, RENDER_CACHE: 'false' }, metaOf('p1', {}));
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await gateway.cleanup();
    await upstream.close();
  });

  const post = (length: number, extra = '') =>
    `POST /api/auth/login HTTP/1.1\r\nHost: site.example\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

  it('forwards a body sent after 100 Continue (undici never sees the Expect header)', async () => {
    const body = '{"email":"a@b.c"}';
    const answer = await rawRequest(port, post(body.length, 'Expect: 100-continue\r\n'), { afterContinue: body });
    expect(answer.interim).toEqual([100]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ got: { email: 'a@b.c' } });
  });

  it('answers 413, not 502, for an oversized body announced with Expect: 100-continue', async () => {
    const answer = await rawRequest(port, post(2 * 1024 * 1024, 'Expect: 100-continue\r\n'));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413 });
  });
});

describe('compressed request bodies at the gateway', () => {
  it('refuses a gzip body with 415 instead of decoding it and forwarding the old length (502)', async () => {
    const gateway = await startGateway({ RENDER_CACHE: 'false' }, metaOf('p2', {}));
    try {
      const response = await gateway.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync('{"email":"a@b.c","password":"x"}'),
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ statusCode: 415, url: '/api/auth/login' });
    } finally {
      await gateway.cleanup();
    }
  });
});
