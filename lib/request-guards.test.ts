import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../tests/support/raw-http.js';
import { createService } from './service.js';

describe('request guards', () => {
  const app = createService({ name: 'test', logger: pino({ level: 'silent' }), production: true, bodyLimit: 64 });
  app.post('/echo', async (request) => ({ got: request.body }));
  let port: number;
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  const post = (length: number, extra = '') =>
    `POST /echo HTTP/1.1\r\nHost: t\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

  it('asks for a body that fits with 100 Continue and reads it', async () => {
    const body = '{"a":1}';
    const answer = await rawRequest(port, post(body.length, 'Expect: 100-continue\r\n'), { afterContinue: body });
    expect(answer.interim).toEqual([100]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ got: { a: 1 } });
  });

  it('refuses a declared body over the limit with 413 before 100 Continue, and closes', async () => {
    const answer = await rawRequest(port, post(10_000, 'Expect: 100-continue\r\n'));
    expect(answer.interim).toEqual([]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413, url: '/echo' });
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(answer.closed).toBe(true);
  });

  it('refuses a declared body over the limit without Expect too', async () => {
    const answer = await rawRequest(port, post(10_000) + 'x'.repeat(100));
    expect(answer.status).toBe(413);
    expect(answer.closed).toBe(true);
  });
});
