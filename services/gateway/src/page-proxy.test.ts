/**
 * Pages to the renderer from the request path (page-proxy.ts): streamed as they come, retried
 * where the route retried, ended upstream when the visitor leaves. A real gateway listening on a
 * port, plain node:http renderers and clients: no mocks.
 */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../tests/support/wait-for.js';
import { capturingLogger, metaOf, startGateway, type TestGateway } from './test-support/upstreams.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A renderer whose answer each test sets, counting what it was asked. */
async function startRenderer(): Promise<{ url: string; server: Server; seen: string[]; answer: (handler: Handler) => void }> {
  const seen: string[] = [];
  let handler: Handler = (_req, res) => res.end('unset');
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen, answer: (next) => (handler = next) };
}

/** A GET from a real client socket; `onResponse` sees the answer as it starts. */
function get(
  base: string,
  path: string,
  onResponse?: (res: IncomingMessage) => void,
): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false }, (res) => {
      onResponse?.(res);
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject).end();
  });
}

describe('pages sent to the renderer from the request path', () => {
  let renderer: Awaited<ReturnType<typeof startRenderer>>;
  let gateway: TestGateway;
  let base = '';
  const log = capturingLogger();

  beforeAll(async () => {
    renderer = await startRenderer();
    gateway = await startGateway(
      { RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url, RENDER_CACHE: 'false' },
      metaOf('b1', { '/ruled/**': { headers: { 'x-rule': 'yes' } } }),
      log.logger,
    );
    base = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => void (renderer.seen.length = 0));
  afterAll(async () => {
    await gateway.cleanup();
    renderer.server.closeAllConnections();
    renderer.server.close();
  });

  it('streams the shell to the visitor before the renderer has finished the page', async () => {
    let finish = () => {};
    renderer.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!DOCTYPE html><p>shell</p>');
      finish = () => res.end('<p>rest</p>');
    });
    let firstChunk = '';
    const answer = get(base, '/ruled/stream', (res) => res.once('data', (chunk: Buffer) => ((firstChunk = chunk.toString()), finish())));
    const { status, body, headers } = await answer;
    expect(status).toBe(200);
    expect(firstChunk).toBe('<!DOCTYPE html><p>shell</p>');
    expect(body).toBe('<!DOCTYPE html><p>shell</p><p>rest</p>');
    // The answer hooks ran as for any answer: route rule headers and the security headers.
    expect(headers['x-rule']).toBe('yes');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends an answer the renderer sent whole (a Content-Length) in one piece, once all of it is in', async () => {
    const page = `<!DOCTYPE html><p>${'x'.repeat(70_000)}</p>`;
    renderer.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(page)) });
      // Two writes apart: the visitor still gets it all as one answer.
      res.write(page.slice(0, 1000));
      setTimeout(() => res.end(page.slice(1000)), 20);
    });
    let chunks = 0;
    const { status, body, headers } = await get(base, '/ruled/whole', (res) => res.on('data', () => chunks++));
    expect(status).toBe(200);
    expect(body).toBe(page);
    expect(headers['content-length']).toBe(String(Buffer.byteLength(page)));
    expect(headers['transfer-encoding']).toBeUndefined();
    expect(headers['x-rule']).toBe('yes');
    expect(chunks).toBeGreaterThan(0);
  });

  it('answers 502 for a whole answer that breaks off before its end, asking once more first', async () => {
    renderer.answer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100', 'x-partial': 'first' });
      res.write('<p>only a tenth');
      setTimeout(() => req.socket.destroy(), 10);
    });
    const { status, headers } = await get(base, '/broken-whole');
    expect(status).toBe(502);
    // Nothing of the broken answer reached the visitor, its headers included.
    expect(headers['x-partial']).toBeUndefined();
    expect(renderer.seen).toEqual(['GET /broken-whole', 'GET /broken-whole']);
  });

  it('keeps a HEAD answer’s declared length and sends no body', async () => {
    renderer.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '12345' });
      res.end();
    });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${base}/head-page`, { method: 'HEAD', agent: false }, resolve).on('error', reject).end();
    });
    response.resume();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe('12345');
  });

  it('drops the renderer’s hop-by-hop headers and keeps its own', async () => {
    renderer.answer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/plain',
        'x-own': 'kept',
        'keep-alive': 'timeout=99',
        connection: 'keep-alive, x-own-hop',
        'x-own-hop': 'dropped',
      });
      res.end('ok');
    });
    const { headers } = await get(base, '/hop');
    expect(headers['x-own']).toBe('kept');
    expect(headers['x-own-hop']).toBeUndefined();
    expect(headers['keep-alive']).toBeUndefined();
  });

  it('asks once more when the renderer closed a pooled connection without answering', async () => {
    let calls = 0;
    renderer.answer((req, res) => {
      if (++calls === 1) return req.socket.destroy();
      res.end('second time');
    });
    const { status, body } = await get(base, '/reset');
    expect(status).toBe(200);
    expect(body).toBe('second time');
    expect(renderer.seen).toEqual(['GET /reset', 'GET /reset']);
  });

  it('answers 502 when the renderer closes the connection twice, with one warning', async () => {
    renderer.answer((req) => req.socket.destroy());
    log.lines.length = 0;
    const { status } = await get(base, '/always-reset');
    expect(status).toBe(502);
    expect(renderer.seen).toEqual(['GET /always-reset', 'GET /always-reset']);
    expect(log.lines.filter((line) => line.msg === 'upstream failed')).toHaveLength(1);
  });

  it('ends the renderer’s request when its visitor leaves before the answer', async () => {
    let upstreamClosed = false;
    renderer.answer((req, res) => {
      // Never answers: only the visitor's leaving can end it.
      res.on('close', () => (upstreamClosed = true));
      void req;
    });
    const visitor = request(`${base}/slow`, { agent: false });
    visitor.on('error', () => undefined).end();
    await waitFor(() => renderer.seen.includes('GET /slow'), 3000);
    visitor.destroy();
    await waitFor(() => upstreamClosed, 3000);
    expect(upstreamClosed).toBe(true);
  });

  it('leaves a request with a body to the proxy route, which reads it whole first', async () => {
    renderer.answer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => res.end(`got ${body}`));
    });
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/form',
      payload: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.body).toBe('got a=1');
  });
});
