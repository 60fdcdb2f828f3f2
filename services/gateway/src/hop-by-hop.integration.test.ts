/** The client connection through the gateway, read on a raw socket: Connection: close and keep-alive. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../tests/support/raw-http.js';
import { metaOf, startGateway, type TestGateway } from './test-support/upstreams.js';

describe('the gateway keeps or closes the client connection as asked', () => {
  let upstream: FastifyInstance, gateway: TestGateway, port: number;

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/*', async (_request, reply) => {
      reply.header('connection', 'keep-alive');
      reply.header('keep-alive', 'timeout=600');
      return { ok: true };
    });
    const url = await upstream.listen({ port: 0, host: '127.0.0.1' });
    gateway = await startGateway({ RENDERER_URL: url, IMAGE_URL: url, ICONS_URL: url, RENDER_CACHE: 'false' }, metaOf('h1', {}));
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await gateway.cleanup();
    await upstream.close();
  });

  it('closes the socket after the answer when the client sent Connection: close', async () => {
    const answer = await rawRequest(port, 'GET /x HTTP/1.1\r\nHost: site.example\r\nConnection: close\r\n\r\n', { closeWaitMs: 2000 });
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['keep-alive']).toBeUndefined();
    expect(answer.closed).toBe(true);
  });

  it('keeps a keep-alive client connection open', async () => {
    const answer = await rawRequest(port, 'GET /x HTTP/1.1\r\nHost: site.example\r\n\r\n', { closeWaitMs: 500 });
    expect(answer.status).toBe(200);
    expect(answer.closed).toBe(false);
  });
});
