/**
 * The whole stack as local processes, as `npm start` runs it, each test run isolated: its own
 * ports, its own build-store folder and image cache, and its own Redis key prefix.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HEALTH_PATH, READY_PATH } from '@tern/shared/url-space/health';
import { deleteKeys, TEST_REDIS_URL } from './redis-keys.js';
import { PORT_OFFSETS, SERVICE_NAMES, spawnService, waitForOk, type ServiceName } from './services.js';
import { findFreeBasePort } from './ports.js';
import type { Stack, StackOptions } from './stack-types.js';

export async function startLocalStack(options: StackOptions = {}): Promise<Stack> {
  const basePort = await findFreeBasePort();
  const dir = await mkdtemp(join(tmpdir(), 'stack-'));
  const redisPrefix = `test:${randomUUID()}:`;
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    BUILD_STORE_DIR: join(dir, 'build-store'),
    IMAGE_CACHE_DIR: join(dir, 'image-cache'),
    CACHE_DIR: join(dir, 'render-cache'),
    ...(options.redis ? { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } : {}),
    ...options.env,
  };
  // Embedded mode must not inherit a REDIS_URL from the environment the tests run in.
  if (!options.redis) delete env.REDIS_URL;
  const children = new Map<ServiceName, ChildProcess>();
  const logs = new Map<ServiceName, string[]>(SERVICE_NAMES.map((name) => [name, []]));
  const serviceUrl = (name: ServiceName) => `http://127.0.0.1:${basePort + PORT_OFFSETS[name]}`;

  async function startService(name: ServiceName): Promise<void> {
    const child = spawnService(name, basePort, env);
    children.set(name, child);
    const lines = logs.get(name)!;
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        if (process.env.STACK_LOGS) process.stdout.write(`[${name}] ${line}\n`);
      });
    }
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was healthy:\n${lines.slice(-20).join('\n')}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForOk(`${serviceUrl(name)}${HEALTH_PATH}`, 30_000), exited]);
  }

  async function stopService(name: ServiceName, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    children.delete(name);
    return code;
  }

  async function stop(): Promise<void> {
    await Promise.all(SERVICE_NAMES.map((name) => stopService(name)));
    if (options.redis) await deleteKeys(redisUrl, redisPrefix).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }

  try {
    // The renderer publishes the build the gateway serves, so it starts first.
    await startService('renderer');
    await Promise.all((['image', 'icons', 'gateway'] as const).map(startService));
    await waitForOk(`${serviceUrl('gateway')}${READY_PATH}`, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    mode: 'local',
    url: serviceUrl('gateway'),
    serviceUrl,
    startService,
    stopService,
    redisUrl: options.redis ? redisUrl : undefined,
    redisPrefix: options.redis ? redisPrefix : undefined,
    buildStoreDir: join(dir, 'build-store'),
    logs: (name) => [...logs.get(name)!],
    stop,
  };
}
