/**
 * Request bodies over a raw TCP connection to a listening gateway: 100 Continue, framing the HTTP
 * parser refuses, an upload abandoned half way. app.inject cannot send any of these.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../tests/support/raw-http.js';
import { waitFor } from '../../../tests/support/wait-for.js';
import { capturingLogger, metaOf, startGateway, type TestGateway } from './test-support/upstreams.js';

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

describe('client faults in request bodies', () => {
  let upstream: FastifyInstance, gateway: TestGateway, port: number;
  const { logger, lines } = capturingLogger();

  beforeAll(async () => {
    upstream = Fastify();
    upstream.post('/*', async (request) => ({ got: request.body }));
    const url = await upstream.listen({ port: 0, host: '127.0.0.1' });
    gateway = await startGateway({ RENDERER_URL: url, IMAGE_URL: url, ICONS_URL: url, RENDER_CACHE: 'false' }, metaOf('p3', {}), logger);
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await gateway.cleanup();
    await upstream.close();
  });

  const head = (path: string, framing: string) =>
    `POST ${path} HTTP/1.1\r\nHost: s\r\nAccept: application/json\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

  it.each([
    ['/more-than-announced', head('/more-than-announced', 'Content-Length: 5') + '{"a":1}'],
    ['/broken-chunks', head('/broken-chunks', 'Transfer-Encoding: chunked') + '5\r\n{"a":\r\nZZ\r\n'],
  ])('%s: a 4xx logged below warn, never a 502 nor an ERROR line', async (path, request) => {
    const answer = await rawRequest(port, request);
    expect(answer.status === 0 || (answer.status >= 400 && answer.status < 500), answer.raw).toBe(true);
    // The access line is written when the gateway gives up on the request, after the answer.
    await waitFor(() => lines.some((line) => line.msg === 'request' && line.path === path), 5000);
    const mine = lines.filter((line) => String(line.path ?? '') === path || line.msg === 'client broke its request');
    const access = mine.find((line) => line.msg === 'request' && line.path === path);
    expect(access?.status, JSON.stringify(mine)).toBeGreaterThanOrEqual(400);
    expect(access?.status, JSON.stringify(mine)).toBeLessThan(500);
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('an upload the client abandons half way is a 4xx at info', async () => {
    const answer = await rawRequest(port, head('/abandoned', 'Content-Length: 100') + '{"a":', { timeoutMs: 300 });
    expect(answer.status).toBe(0);
    await waitFor(() => lines.some((line) => line.msg === 'request' && line.path === '/abandoned'), 5000);
    const access = lines.find((line) => line.msg === 'request' && line.path === '/abandoned');
    expect(access?.status).toBeGreaterThanOrEqual(400);
    expect(access?.status).toBeLessThan(500);
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
