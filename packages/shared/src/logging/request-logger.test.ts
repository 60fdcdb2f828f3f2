import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

function appWithLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  const child = vi.spyOn(logger, 'child');
  const app = Fastify({ loggerInstance: logger, disableRequestLogging: true, childLoggerFactory: lazyRequestLogger, genReqId: () => 'req-1' });
  app.get('/quiet', async () => 'ok');
  app.get('/logs', async (request) => {
    request.log.warn({ path: request.url }, 'something to say');
    request.log.debug('below the level');
    return request.log.level;
  });
  return { app, lines, child };
}

describe('the per-request logger', () => {
  it('is never made for a request that logs nothing', async () => {
    const { app, child } = appWithLines();
    await app.ready();
    const atStart = child.mock.calls.length; // Fastify's own, for the instance
    expect((await app.inject('/quiet')).body).toBe('ok');
    expect(child.mock.calls.length).toBe(atStart);
  });

  it('writes what Fastify’s own child would: the request id bound, the parent’s level', async () => {
    const { app, lines, child } = appWithLines();
    await app.ready();
    const atStart = child.mock.calls.length;
    expect((await app.inject('/logs')).body).toBe('info');
    expect(child.mock.calls.length).toBe(atStart + 1);
    expect(lines).toEqual([expect.objectContaining({ reqId: 'req-1', level: 40, path: '/logs', msg: 'something to say' })]);
  });
});
