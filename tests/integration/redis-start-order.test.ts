/**
 * Start in any order (issue 23): the renderer and the gateway, as local processes, started while
 * their Redis is absent, refusing, in protected mode, asking for another password or hung. Each
 * listens and serves; `/readyz` says degraded with Redis's or the OS's own reason; the renderer
 * logs that reason with the URL (never its password), repeated with backoff; and once Redis
 * answers, the renderer publishes its build and the gateway follows it, nothing restarted.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDir } from '@tern/shared/config/paths';
import { freePort } from '../support/free-port.js';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { startProcess, type ServiceProcess } from '../support/processes.js';
import { protectedModeRedis, type StandIn } from '../support/redis-stand-ins.js';

const installed = redisServerInstalled();
if (!installed) console.warn('skipping the start-order suite: redis-server is not installed');

/** An IPv4 address of this machine other than loopback: a client connecting to it is not local to Redis. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

const buildId = (JSON.parse(readFileSync(join(buildDir, 'build', 'meta.json'), 'utf8')) as { id: string }).id;

interface Readiness {
  status: string;
  checks: Record<string, string>;
  reasons?: Record<string, string>;
}

const readiness = async (url: string): Promise<{ code: number; body: Readiness }> => {
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) });
  return { code: response.status, body: (await response.json()) as Readiness };
};

/** The renderer's "cannot be used" lines, parsed. */
const reasonLines = (logs: readonly string[]) =>
  logs.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { msg?: string; reason?: string; failures?: number; redis?: string; time?: number };
      return parsed.msg?.includes('cannot be used') ? [parsed] : [];
    } catch {
      return [];
    }
  });

describe.skipIf(!installed)('services started before their Redis', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  /** Renderer and gateway on `redisUrl`; image and icons are not started (the gateway says so). */
  async function startServices(redisUrl: string): Promise<{ renderer: ServiceProcess; gateway: ServiceProcess }> {
    const dir = await mkdtemp(join(tmpdir(), 'start-order-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const [rendererPort, gatewayPort, nothing] = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `start-order:${gatewayPort}:`,
      BUILD_STORE_DIR: join(dir, 'store'),
      CACHE_DIR: join(dir, 'cache'),
      RENDERER_URL: `http://127.0.0.1:${rendererPort}`,
      IMAGE_URL: `http://127.0.0.1:${nothing}`,
      ICONS_URL: `http://127.0.0.1:${nothing}`,
      BUILD_POLL_MS: '200',
    };
    const renderer = await startProcess('renderer', 'renderer', rendererPort, env);
    cleanups.push(() => renderer.stop());
    const gateway = await startProcess('gateway', 'gateway', gatewayPort, env);
    cleanups.push(() => gateway.stop());
    return { renderer, gateway };
  }

  /** Both serve and say why the store is degraded; the renderer logged the reason with backoff. */
  async function expectStartedAndSaying(services: { renderer: ServiceProcess; gateway: ServiceProcess }, reason: RegExp) {
    const { renderer, gateway } = services;
    const fromRenderer = await readiness(renderer.url);
    expect(fromRenderer.code).toBe(200);
    expect(fromRenderer.body.checks.buildStore).toBe('degraded');
    expect(fromRenderer.body.reasons?.buildStore).toMatch(reason);
    expect(fromRenderer.body.checks.accounts).toBe('degraded');
    expect(fromRenderer.body.reasons?.accounts).toMatch(reason);
    const fromGateway = await readiness(gateway.url);
    expect(fromGateway.code).toBe(200);
    expect(fromGateway.body.checks.store).toBe('degraded');
    expect(fromGateway.body.reasons?.store).toMatch(reason);
    // The reason, repeated with backoff: the n-th repeat comes at least 2^(n-1) s after the one before.
    await waitFor(() => reasonLines(renderer.logs).length >= 3, 15_000, 100);
    const lines = reasonLines(renderer.logs);
    expect(lines[0]!.reason).toMatch(reason);
    for (let i = 1; i < lines.length; i++) {
      expect(lines[i]!.reason).toMatch(reason);
      expect(lines[i]!.time! - lines[i - 1]!.time!).toBeGreaterThanOrEqual(1000 * 2 ** (i - 1));
    }
    expect(lines.at(-1)!.failures).toBeGreaterThanOrEqual(lines.length);
    // Pages are served meanwhile; sign-in answers 503 with Retry-After (docs/decisions/availability.md); nothing exited.
    const page = await fetch(`${gateway.url}/about`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    const signIn = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gateway.url },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
      signal: AbortSignal.timeout(5000),
    });
    expect(signIn.status).toBe(503);
    expect(Number(signIn.headers.get('retry-after'))).toBeGreaterThan(0);
    await signIn.arrayBuffer();
    expect(renderer.logs.join('\n')).not.toMatch(/failed to start|"level":60/);
  }

  /** Once Redis answers: the renderer publishes, the gateway follows, both say ready about the store. */
  async function expectPublishedAndFollowed(services: { renderer: ServiceProcess; gateway: ServiceProcess }) {
    const { renderer, gateway } = services;
    await waitFor(
      async () => {
        const response = await fetch(`${gateway.url}/_nuxt/builds/latest.json`);
        return response.ok && ((await response.json()) as { id: string }).id === buildId;
      },
      15_000,
      100,
    );
    await waitFor(async () => (await readiness(renderer.url)).body.checks.buildStore === 'ok', 10_000, 100);
    await waitFor(async () => (await readiness(gateway.url)).body.checks.store === 'ok', 10_000, 100);
    expect(renderer.logs.some((line) => line.includes('answers again'))).toBe(true);
  }

  it('absent: a host name that does not resolve (a container not up yet)', async () => {
    const services = await startServices('redis://cookbook-redis.invalid:6379');
    await expectStartedAndSaying(services, /ENOTFOUND|EAI_AGAIN/);
  }, 60_000);

  it('refusing: nothing on the port, then Redis starts there', async () => {
    const redis = await ownRedis();
    cleanups.push(() => redis.stop());
    const services = await startServices(redis.url);
    await expectStartedAndSaying(services, /ECONNREFUSED/);
    await redis.start();
    await expectPublishedAndFollowed(services);
  }, 60_000);

  it.skipIf(!outside)(
    'protected mode: a real redis-server reached over a non-loopback address, until the operator turns it off',
    async () => {
      const redis = await ownRedis({ args: ['--bind', '* -::*', '--protected-mode', 'yes'] });
      cleanups.push(() => redis.stop());
      await redis.start();
      const services = await startServices(redis.url.replace('127.0.0.1', outside!));
      await expectStartedAndSaying(services, /DENIED Redis is running in protected mode/);
      // What Redis's own message tells the operator to do, from the loopback interface.
      const admin = new Redis(redis.url);
      cleanups.push(async () => admin.disconnect());
      await admin.config('SET', 'protected-mode', 'no');
      await expectPublishedAndFollowed(services);
    },
    60_000,
  );

  it('protected mode, as a stand-in answering DENIED (for machines with no other address), then a Redis that lets it in', async () => {
    let standIn: StandIn | null = await protectedModeRedis();
    cleanups.push(() => standIn?.close() ?? Promise.resolve());
    const services = await startServices(standIn.url);
    await expectStartedAndSaying(services, /DENIED Redis is running in protected mode/);
    const port = standIn.port;
    await standIn.close();
    standIn = null;
    const redis = await ownRedis({ port });
    cleanups.push(() => redis.stop());
    await redis.start();
    await expectPublishedAndFollowed(services);
  }, 60_000);

  it('wrong password: WRONGPASS, with the password kept out of the log, until Redis takes it', async () => {
    const redis = await ownRedis({ password: 'the-right-one' });
    cleanups.push(() => redis.stop());
    await redis.start();
    const services = await startServices(redis.url.replace('redis://', 'redis://:not-the-password@'));
    await expectStartedAndSaying(services, /WRONGPASS/);
    const logs = [...services.renderer.logs, ...services.gateway.logs].join('\n');
    expect(logs).not.toContain('not-the-password');
    expect(reasonLines(services.renderer.logs)[0]!.redis).toMatch(/^redis:\/\/:\*\*\*@127\.0\.0\.1:\d+$/);
    // The operator fixes Redis's side: the services get in without a restart.
    const admin = new Redis(redis.url, { password: 'the-right-one' });
    cleanups.push(async () => admin.disconnect());
    await admin.config('SET', 'requirepass', 'not-the-password');
    await expectPublishedAndFollowed(services);
  }, 60_000);

  it('hung: a Redis that accepts connections and never answers, then resumes', async () => {
    const redis: OwnRedis = await ownRedis();
    cleanups.push(() => redis.stop());
    await redis.start();
    redis.hang();
    const services = await startServices(redis.url);
    await expectStartedAndSaying(services, /no reply within \d+ ms/);
    redis.resume();
    await expectPublishedAndFollowed(services);
  }, 60_000);
});
