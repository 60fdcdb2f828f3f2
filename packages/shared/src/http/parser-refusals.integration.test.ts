import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from '../../../../tests/support/raw-http.js';
import { clientErrorStatus, readRawHead } from './parser-refusals.js';
import { createService } from './service.js';

describe('readRawHead', () => {
  it('reads method, target and headers leniently, echoing only a plain path', () => {
    const head = readRawHead(Buffer.from('FOO /x?y=1 HTTP/1.1\r\nAccept: application/json\r\nHost: a\r\n\r\n'));
    expect(head).toEqual({ method: 'FOO', url: '/x?y=1', headers: { accept: 'application/json', host: 'a' }, lineLength: 19 });
    expect(readRawHead(Buffer.from('GET http://evil/ HTTP/1.1\r\n')).url).toBe('/');
    expect(readRawHead(Buffer.from('GET /a<script> b')).url).toBe('/a<script>');
    expect(readRawHead(undefined)).toMatchObject({ method: '', url: '/', lineLength: 0 });
  });

  it('chooses 431, 414, 408, 405 or 400', () => {
    const complete = readRawHead(Buffer.from('GET / HTTP/1.1\r\n'));
    const partial = readRawHead(Buffer.from(`GET /${'a'.repeat(10_000)}`));
    expect(clientErrorStatus('HPE_HEADER_OVERFLOW', complete)).toBe(431);
    expect(clientErrorStatus('HPE_HEADER_OVERFLOW', partial)).toBe(414);
    expect(clientErrorStatus('ERR_HTTP_REQUEST_TIMEOUT', complete)).toBe(408);
    expect(clientErrorStatus('HPE_INVALID_METHOD', complete)).toBe(405);
    expect(clientErrorStatus('HPE_INVALID_HEADER_TOKEN', complete)).toBe(400);
  });
});

describe('errors Fastify and Node answer themselves, in the one shape', () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = createService({ name: 'test', logger, production: true, edgeHeaders: { 'x-content-type-options': 'nosniff' } });
  app.get('/items/:id', async () => ({ ok: true }));
  app.post('/items/:id', async () => ({ ok: true }));
  app.get('/files/*', async (request, reply) => reply.callNotFound());
  let port: number;
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  const json = (line: string, extra = '') => `${line}\r\nHost: t\r\nAccept: application/json\r\n${extra}\r\n`;
  const html = (line: string, extra = '') => `${line}\r\nHost: t\r\nAccept: text/html\r\n${extra}\r\n`;

  function expectShape(answer: RawAnswer, status: number) {
    expect(answer.status, answer.raw).toBe(status);
    expect(answer.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
    if (answer.headers['content-type']?.startsWith('application/json')) {
      expect(JSON.parse(answer.body)).toMatchObject({
        statusCode: status,
        statusMessage: expect.any(String),
        message: expect.any(String),
        // One of ours (packages/shared/src/errors/error-codes.ts, or HTTP_<status> for an error nobody coded), never Node's or Fastify's.
        code: expect.stringMatching(/^(LIB|HTTP)_[A-Z0-9_]+$/),
      });
    } else {
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body).toContain('data-error-page');
    }
    expect(answer.body).not.toMatch(/FST_|HPE_/);
  }

  it.each([
    ['bad percent-encoding, JSON', json('GET /items/%E0%A4%A HTTP/1.1'), 400],
    ['bad percent-encoding, page', html('GET /items/%ZZ HTTP/1.1'), 400],
    ['unknown method', json('FOO /items/1 HTTP/1.1'), 405],
    ['obs-fold', json('GET /items/1 HTTP/1.1', 'X-A: 1\r\n folded\r\n'), 400],
    ['Content-Length with Transfer-Encoding', json('POST /items/1 HTTP/1.1', 'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n'), 400],
    ['headers too large', json('GET /items/1 HTTP/1.1', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431],
    ['request line too long', `GET /items/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: t\r\n\r\n`, 414],
    ['no Host', 'GET /items/1 HTTP/1.1\r\nAccept: application/json\r\n\r\n', 400],
    ['an expectation other than 100-continue', json('GET /items/1 HTTP/1.1', 'Expect: 200-ok\r\n'), 417],
    ['a method the path does not have', json('DELETE /items/1 HTTP/1.1'), 405],
    ['a method Fastify has no route tree for', json('PROPFIND /items/1 HTTP/1.1'), 405],
    ['CONNECT (no service is a forward proxy)', json('CONNECT evil.example:443 HTTP/1.1'), 405],
    ['HTTP/2.0 on an HTTP/1 request line', json('GET /items/1 HTTP/2.0'), 400],
  ])('%s', async (_name, request, status) => {
    const answer = await rawRequest(port, request);
    expectShape(answer, status);
    if (status === 405) expect(answer.headers.allow).toBe(request.startsWith('CONNECT') ? '' : 'GET, HEAD, POST');
  });

  it('answers a parser error with the edge headers and closes the connection', async () => {
    const answer = await rawRequest(port, json('FOO /items/1 HTTP/1.1'));
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('keeps 404 for a path no method has, and answers OPTIONS with Allow', async () => {
    expectShape(await rawRequest(port, json('DELETE /nothing HTTP/1.1')), 404);
    // A GET route that gave up on the path (a missing static file) stays a 404 for GET.
    expectShape(await rawRequest(port, json('GET /files/missing.js HTTP/1.1')), 404);
    expectShape(await rawRequest(port, json('POST /files/missing.js HTTP/1.1')), 405);
    const options = await rawRequest(port, json('OPTIONS /items/1 HTTP/1.1'));
    expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, POST']);
  });

  it('writes an access line for answers Fastify never routed', async () => {
    lines.length = 0;
    await rawRequest(port, json('FOO /items/7 HTTP/1.1'));
    await rawRequest(port, json('GET /items/%ZZ HTTP/1.1'));
    const access = lines.filter((line) => line.msg === 'request').map((line) => [line.method, line.status]);
    expect(access).toEqual([
      ['FOO', 405],
      ['GET', 400],
    ]);
  });
});
