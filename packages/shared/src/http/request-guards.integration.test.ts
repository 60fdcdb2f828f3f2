/** The body limit as a client on a raw connection meets it: 100 Continue, 413 and a lingering close. */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../../tests/support/raw-http.js';
import { createService } from './service.js';

describe('request guards', () => {
  const app = createService({ name: 'test', logger: pino({ level: 'silent' }), production: true, bodyLimit: 64 });
  app.post('/echo', async (request) => ({ got: request.body }));
  let hits = 0;
  app.get('/hit', async () => ({ hits: ++hits }));
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

  it('lets a client still uploading a refused body read its 413 (a lingering close, not a reset)', async () => {
    // 8 MB is still on its way when the answer goes out: closing then would reset the connection.
    const body = 'x'.repeat(8 * 1024 * 1024);
    const answers = await Promise.all(Array.from({ length: 4 }, () => rawRequest(port, post(body.length) + body, { timeoutMs: 10_000 })));
    expect(answers.map((answer) => answer.status)).toEqual([413, 413, 413, 413]);
    expect(answers.every((answer) => answer.closed)).toBe(true);
  });

  it('runs nothing a client sends after the refused body on the closing connection', async () => {
    const next = `GET /hit HTTP/1.1\r\nHost: t\r\n\r\n`;
    const answer = await rawRequest(port, post(100) + 'x'.repeat(100) + next, { closeWaitMs: 1000 });
    expect(answer.status).toBe(413);
    expect(answer.raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(answer.closed).toBe(true);
    expect(hits).toBe(0);
  });
});
