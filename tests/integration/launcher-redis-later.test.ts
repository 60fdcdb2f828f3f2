/**
 * `npm start` with a REDIS_URL whose Redis is not up yet (issue 23): no service exits, the launcher
 * gives up on nothing, the gateway is ready (degraded) at once, and once Redis starts the build is
 * published and served, with nothing restarted. Before, the renderer exited 1 five times in about
 * five seconds, the launcher gave up on it, and the site never came up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { findFreeBasePort } from '@tern/cli/ports';
import { waitForStack } from '@tern/cli/services';

const installed = redisServerInstalled();
if (!installed) console.warn('skipping the launcher-before-Redis suite: redis-server is not installed');

describe.skipIf(!installed)('npm start before its Redis is up', () => {
  let launcher: ChildProcess;
  let redis: OwnRedis;
  let origin = '';
  let port = 0;
  let dir = '';
  const lines: string[] = [];
  const prefix = `launcher-later:${process.pid}:`;

  beforeAll(async () => {
    redis = await ownRedis();
    port = await findFreeBasePort();
    origin = `http://127.0.0.1:${port}`;
    dir = await mkdtemp(join(tmpdir(), 'launcher-later-'));
    launcher = spawn(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'launch.js')], {
      cwd: projectRoot,
      env: {
        ...process.env,
        PORT: String(port),
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        REDIS_URL: redis.url,
        REDIS_PREFIX: prefix,
        BUILD_STORE_DIR: join(dir, 'store'),
        IMAGE_CACHE_DIR: join(dir, 'images'),
        CACHE_DIR: join(dir, 'cache'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [launcher.stdout!, launcher.stderr!]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  }, 30_000);
  afterAll(async () => {
    if (launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('comes up without Redis, says why, and serves pages', async () => {
    await waitForStack(port, 60_000);
    const ready = (await (await fetch(`${origin}/readyz`)).json()) as { status: string; reasons: Record<string, string> };
    expect(ready.status).toBe('degraded');
    expect(ready.reasons.store).toMatch(/ECONNREFUSED/);
    const page = await fetch(`${origin}/category/git`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    // Piped, the launcher's output is the services' own JSON lines (a terminal gets tagged ones).
    expect(lines.some((line) => line.includes('"service":"renderer"') && line.includes('cannot be used: connect ECONNREFUSED'))).toBe(true);
  }, 90_000);

  it('publishes and serves the build once Redis starts, with no service restarted and none given up on', async () => {
    await redis.start();
    const client = new Redis(redis.url);
    try {
      await waitFor(async () => (await client.get(`${prefix}build:current`)) !== null, 20_000, 200);
    } finally {
      client.disconnect();
    }
    await waitFor(async () => (await fetch(`${origin}/_nuxt/builds/latest.json`)).status === 200, 20_000, 200);
    await waitFor(
      async () => ((await (await fetch(`${origin}/readyz`)).json()) as { checks: Record<string, string> }).checks.store === 'ok',
      20_000,
      200,
    );
    expect(lines.filter((line) => /exited|gave up|not restarting|restarted/.test(line) && line.includes('[launcher]'))).toEqual([]);
  }, 60_000);
});
