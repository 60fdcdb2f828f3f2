import Fastify, { type FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTokens, withoutHopByHop } from './hop-by-hop.js';
import { metaOf, startGateway, type TestGateway } from './test-support/upstreams.js';

describe('withoutHopByHop', () => {
  it('drops the fixed set, proxy-* and what Connection names, keeps the rest', () => {
    const out = withoutHopByHop({
      connection: 'keep-alive, X-Secret',
      'keep-alive': 'timeout=5',
      te: 'trailers',
      trailer: 'x-sum',
      'transfer-encoding': 'chunked',
      upgrade: 'websocket',
      'proxy-authorization': 'Basic eA==',
      'proxy-connection': 'keep-alive',
      'x-secret': 'internal',
      'content-type': 'text/html',
      'cache-control': 'no-store',
    });
    expect(out).toEqual({ 'content-type': 'text/html', 'cache-control': 'no-store' });
  });

  it('reads Connection tokens in any case and spacing', () => {
    expect(connectionTokens(' Close ,X-A,,x-b ')).toEqual(['close', 'x-a', 'x-b']);
    expect(connectionTokens(undefined)).toEqual([]);
  });
});

describe('the gateway as a proxy drops hop-by-hop headers both ways', () => {
  let upstream: FastifyInstance, gateway: TestGateway;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/*', async (request, reply) => {
      seen.push(request.headers);
      reply.header('connection', 'keep-alive, x-upstream-secret');
      reply.header('keep-alive', 'timeout=600');
      reply.header('x-upstream-secret', 'pool-7');
      reply.header('proxy-authenticate', 'Basic');
      return { ok: true };
    });
    const url = await upstream.listen({ port: 0, host: '127.0.0.1' });
    gateway = await startGateway({ RENDERER_URL: url, IMAGE_URL: url, ICONS_URL: url, RENDER_CACHE: 'false' }, metaOf('h1', {}));
  });
  afterAll(async () => {
    await gateway.cleanup();
    await upstream.close();
  });

  it('never copies the upstream connection headers into the answer', async () => {
    const response = await gateway.app.inject({ url: '/x' });
    expect(response.statusCode).toBe(200);
    for (const name of ['keep-alive', 'x-upstream-secret', 'proxy-authenticate']) {
      expect(response.headers[name], name).toBeUndefined();
    }
  });

  it('never sends the client connection headers upstream', async () => {
    await gateway.app.inject({
      url: '/client-headers',
      headers: {
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': '1',
        'keep-alive': '300',
        te: 'trailers',
        'proxy-authorization': 'Basic eA==',
        'x-kept': '1',
      },
    });
    const sent = seen.at(-1)!;
    expect(sent['x-kept']).toBe('1');
    for (const name of ['x-drop-me', 'keep-alive', 'te', 'proxy-authorization']) expect(sent[name], name).toBeUndefined();
  });
});
