import { execFile } from 'node:child_process';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../config/paths.js';
import { freePort } from '../../../../tests/support/free-port.js';

const script = join(projectRoot, 'packages', 'shared', 'dist', 'http', 'healthcheck.js');
/** Runs the healthcheck as Docker does (asynchronously: the server under test lives in this process). */
const check = (port: number) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [script], { env: { ...process.env, PORT: String(port) }, timeout: 10_000 }, (error, stdout) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout.trim() }),
    );
  });

describe('the container healthcheck follows /readyz: healthy while the service can serve', () => {
  const app = Fastify();
  let answer = { code: 200, body: {} as object };
  let port = 0;
  beforeAll(async () => {
    app.get('/readyz', async (_request, reply) => reply.code(answer.code).send(answer.body));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('is healthy when ready, and when degraded (it says why)', async () => {
    answer = { code: 200, body: { status: 'ready', checks: {} } };
    expect(await check(port)).toEqual({ code: 0, out: '200 ready' });
    answer = { code: 200, body: { status: 'degraded', checks: { renderer: 'degraded' }, reasons: { renderer: 'ECONNREFUSED' } } };
    expect(await check(port)).toEqual({ code: 0, out: '200 degraded (renderer: ECONNREFUSED)' });
  });

  it('is unhealthy when the service can serve nothing, or does not answer', async () => {
    answer = { code: 503, body: { status: 'down', checks: { serving: 'down' }, reasons: { serving: 'nothing' } } };
    expect(await check(port)).toEqual({ code: 1, out: '503 down (serving: nothing)' });
    const nothing = await check(await freePort());
    expect(nothing.code).toBe(1);
    expect(nothing.out).toMatch(/^no answer on port \d+/);
  });
});
