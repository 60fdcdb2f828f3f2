/** The HTTP client against a local server that fails on purpose: retries, headers, error shape. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_STATUS_CODES } from './http-client.js';
import { isHttpError, type HttpError } from '@tern/shared/errors/errors';
import { createHttpClient, retriesFor } from './http-client.js';

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseURL: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://x');
      const status = Number(url.searchParams.get('status') ?? 200);
      // /flaky?status=503: fails once, then answers 200.
      if (url.pathname === '/flaky' && seen.length > 1) response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else if (status >= 400) {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            url: url.pathname,
            statusCode: status,
            statusMessage: 'Failed on purpose',
            message: `failed with ${status}`,
            data: { reason: 'test' },
          }),
        );
      } else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body || null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
});

const http = () => createHttpClient({ baseURL });

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    expect(isHttpError(error)).toBe(true);
    return error as HttpError;
  }
  throw new Error('the request did not fail');
}

describe('retry policy', () => {
  it.each(RETRY_STATUS_CODES.map((status) => [status]))('GET is retried once on %i (2 requests)', async (status) => {
    await failure(http()(`/fail?status=${status}`));
    expect(seen).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 422, 501, 505])('GET is not retried on %i', async (status) => {
    await failure(http()(`/fail?status=${status}`));
    expect(seen).toHaveLength(1);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s is not retried by default, even on 503', async (method) => {
    await failure(http()('/fail?status=503', { method, body: { a: 1 } }));
    expect(seen).toHaveLength(1);
  });

  it('HEAD and OPTIONS get one retry like GET', async () => {
    await failure(http()('/fail?status=502', { method: 'HEAD' }));
    expect(seen).toHaveLength(2);
  });

  it('an explicit retry count applies to any method', async () => {
    await failure(http()('/fail?status=503', { method: 'POST', retry: 2 }));
    expect(seen).toHaveLength(3);
    seen.length = 0;
    await failure(http()('/fail?status=503', { retry: false }));
    expect(seen).toHaveLength(1);
  });

  it('a retry that succeeds answers normally', async () => {
    expect(await http()('/flaky?status=503')).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
  });

  it('retriesFor follows the table', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'get'].map((m) => retriesFor(m))).toEqual([1, 1, 1, 1]);
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'post'].map((m) => retriesFor(m))).toEqual([0, 0, 0, 0, 0]);
    expect(retriesFor(undefined)).toBe(1);
    expect(retriesFor('POST', 3)).toBe(3);
    expect(retriesFor('GET', false)).toBe(0);
  });
});

describe('requests and errors', () => {
  it('sends a JSON body with JSON content-type and accept headers', async () => {
    expect(await http()('/echo', { method: 'POST', body: { name: 'x' } })).toEqual({ echo: '{"name":"x"}' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.accept).toBe('application/json');
  });

  it('keeps a content-type the caller chose', async () => {
    await http()('/echo', { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('resolves relative URLs against the base URL', async () => {
    await http()('echo?x=1');
    expect(seen).toHaveLength(1);
  });

  it('throws the error shape with the server error body', async () => {
    const error = await failure(http()('/fail?status=409', { retry: false }));
    expect([error.statusCode, error.statusMessage, error.message, error.data]).toEqual([
      409,
      'Failed on purpose',
      'failed with 409',
      { reason: 'test' },
    ]);
  });

  it('a server that cannot be reached is a 503 Network Error, retried once for GET', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(createHttpClient({ baseURL: `http://127.0.0.1:${port}` })('/x'));
    expect([error.statusCode, error.statusMessage]).toEqual([503, 'Network Error']);
  });
});
