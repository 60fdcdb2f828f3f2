import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createError } from '../errors/errors.js';
import { createService, listenQuietly, requestIdFrom, type CheckState } from './service.js';

const quiet = pino({ level: 'silent' });

function app(checks: Record<string, () => CheckState> = {}, production = true) {
  const service = createService({ name: 'test', logger: quiet, production, checks });
  service.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  service.get('/teapot', async () => {
    throw createError({ code: 'TEST_TEAPOT', statusCode: 418, statusMessage: 'Teapot', message: 'short and stout', data: { cups: 2 } });
  });
  service.get('/busy', async () => {
    throw createError({ code: 'TEST_BUSY', statusCode: 503, retryAfterS: 2.5, headers: { 'X-Busy-For': 'lunch' } });
  });
  return service;
}

describe('createService', () => {
  it('keeps a plain request id and makes one for a missing or unsafe id', async () => {
    const response = await app().inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers['x-request-id']).toBe('abc-123');
    expect(requestIdFrom('with spaces and <html>')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is ready when every check is ok, degraded when one is, and down (503) when one is down', async () => {
    expect((await app({ a: () => 'ok' }).inject('/readyz')).json()).toEqual({ status: 'ready', checks: { a: 'ok' } });
    const degraded = await app({ a: () => 'ok', b: () => 'degraded' }).inject('/readyz');
    expect([degraded.statusCode, degraded.json().status]).toEqual([200, 'degraded']);
    const down = await app({ a: () => 'down' }).inject('/readyz');
    expect([down.statusCode, down.json().status]).toEqual([503, 'down']);
  });

  it('says why under reasons, for a check that gives one and for one that throws', async () => {
    const service = createService({
      name: 'test',
      logger: pino({ level: 'silent' }),
      production: true,
      checks: {
        a: () => 'ok',
        store: () => ({ state: 'degraded', reason: 'connect ECONNREFUSED 127.0.0.1:6379' }),
        broken: () => {
          throw new Error('no such thing');
        },
      },
    });
    const response = await service.inject('/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'down',
      checks: { a: 'ok', store: 'degraded', broken: 'down' },
      reasons: { store: 'connect ECONNREFUSED 127.0.0.1:6379', broken: 'no such thing' },
    });
  });

  it('answers errors in the one JSON shape and hides unexpected messages in production', async () => {
    const boom = await app().inject({ url: '/boom', headers: { accept: 'application/json' } });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({
      url: '/boom',
      statusCode: 500,
      statusMessage: 'Internal Server Error',
      message: 'Internal Server Error',
      code: 'HTTP_500',
    });
    const teapot = await app().inject({ url: '/teapot', headers: { accept: 'application/json' } });
    expect(teapot.json()).toEqual({
      url: '/teapot',
      statusCode: 418,
      statusMessage: 'Teapot',
      message: 'short and stout',
      code: 'TEST_TEAPOT',
      data: { cups: 2 },
    });
  });

  it('sends the headers an error carries, Retry-After from retryAfterS in whole seconds', async () => {
    const busy = await app().inject({ url: '/busy', headers: { accept: 'application/json' } });
    expect([busy.statusCode, busy.headers['retry-after'], busy.headers['x-busy-for']]).toEqual([503, '3', 'lunch']);
    expect(busy.json()).toMatchObject({ code: 'TEST_BUSY' });
  });

  it('answers a route nobody serves with the shared codes, Allow carried by the 405', async () => {
    const service = app();
    service.get('/only-get', async () => 'ok');
    const notFound = await service.inject({ url: '/nothing', headers: { accept: 'application/json' } });
    expect(notFound.json()).toMatchObject({ statusCode: 404, code: 'LIB_ROUTE_NOT_FOUND', statusMessage: 'Page not found: /nothing' });
    const wrongMethod = await service.inject({ method: 'DELETE', url: '/only-get', headers: { accept: 'application/json' } });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    expect(wrongMethod.json()).toMatchObject({ code: 'LIB_METHOD_NOT_ALLOWED', message: 'DELETE is not allowed here; use GET, HEAD' });
  });

  it('writes one access line per request; health probes only at debug level, but a failing one once the service was ready', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    let state: CheckState = 'down';
    const service = createService({ name: 'test', logger, production: true, checks: { a: () => state } });
    await service.inject('/healthz');
    // Starting: not ready yet, and no news.
    await service.inject('/readyz');
    state = 'ok';
    await service.inject('/readyz');
    state = 'down';
    await service.inject('/readyz');
    await service.inject({ url: '/missing', headers: { 'x-request-id': 'r-1' } });
    expect(lines.map((line) => [line.msg, line.path, line.status])).toEqual([
      ['request', '/readyz', 503],
      ['request', '/missing', 404],
    ]);
    expect(lines[1]).toMatchObject({ reqId: 'r-1', method: 'GET', durationMs: expect.any(Number) });
  });

  it("listens without Fastify's listening line, and leaves the logger as it was", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const service = createService({ name: 'test', logger, production: true });
    const info = service.log.info;
    await listenQuietly(service, 0, '127.0.0.1');
    try {
      expect(service.log.info).toBe(info);
      service.log.info('Server listening at http://127.0.0.1:1 (said by someone else, later)');
      expect(lines.map((line) => line.msg)).toEqual(['Server listening at http://127.0.0.1:1 (said by someone else, later)']);
    } finally {
      await service.close();
    }
  });

  it('shows the error page to browsers, with the SPEC headlines', async () => {
    const missing = await app().inject({ url: '/nothing', headers: { accept: 'text/html' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Page Not Found');
    const boom = await app().inject({ url: '/boom', headers: { accept: 'text/html' } });
    expect(boom.body).toContain('Internal Server Error');
    expect(boom.body).not.toContain('hunter2');
  });
});
