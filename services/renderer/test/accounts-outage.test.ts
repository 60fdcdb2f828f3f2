/**
 * The accounts' endpoints on a Redis that is killed, hung (SIGSTOP) and restarted empty: 503 with
 * Retry-After in the error shape, then recovery with the same process and client. Uses its own
 * redis-server and kills only that one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../lib/testing.js';
import { login, ORIGIN, startAccountsApp, type AccountsApp } from './accounts-app.js';

const installed = spawnSync('redis-server', ['--version']).status === 0;
const SESSION = `cookbook_session=${'a'.repeat(43)}`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!installed)('accounts while Redis is away', () => {
  let port = 0;
  let redis: ChildProcess | null = null;
  let t: AccountsApp;
  const startRedis = () => {
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  };
  const wrongLogin = () => login(t.app, { email: 'nobody@example.com', password: 'not the password' });
  const session = () => t.app.inject({ url: '/api/auth/session', headers: { cookie: SESSION } });
  const saved = () => t.app.inject({ url: '/api/saved', headers: { cookie: SESSION, origin: ORIGIN } });
  const expectUnavailable = async (response: Awaited<ReturnType<typeof session>>) => {
    expect(response.statusCode).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.json()).toMatchObject({ statusCode: 503, statusMessage: 'Service Unavailable' });
  };

  beforeAll(async () => {
    port = await freePort();
    startRedis();
    t = await startAccountsApp({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'outage-test:' });
    await waitFor(() => t.accounts.ping(), 10_000, 100);
  });
  afterAll(async () => {
    redis?.kill('SIGCONT');
    redis?.kill('SIGKILL');
    await t?.close();
  });

  it('answers normally while Redis is up', async () => {
    expect((await wrongLogin()).statusCode).toBe(401);
    expect((await session()).json()).toEqual({ user: null });
  });

  it('answers 503 with Retry-After while Redis hangs, and recovers when it resumes', async () => {
    redis!.kill('SIGSTOP');
    await expectUnavailable(await wrongLogin());
    await expectUnavailable(await session());
    await expectUnavailable(await saved());
    redis!.kill('SIGCONT');
    await waitFor(async () => (await wrongLogin()).statusCode === 401, 15_000, 200);
  }, 30_000);

  it('answers 503 when Redis is killed and recovers when it comes back empty, restarting nothing', async () => {
    const exited = new Promise((resolve) => redis!.once('exit', resolve));
    redis!.kill('SIGKILL');
    await exited;
    await expectUnavailable(await session());
    await expectUnavailable(await wrongLogin());
    startRedis();
    await waitFor(async () => (await session()).statusCode === 200, 15_000, 200);
    expect((await wrongLogin()).statusCode).toBe(401);
  }, 30_000);
});
