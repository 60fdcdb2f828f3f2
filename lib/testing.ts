/** Helpers for tests that need Redis: a reachable URL, or a printed reason to skip. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Resolves true when Redis answers PING within a second; otherwise prints why and resolves false. */
export async function redisAvailable(url = TEST_REDIS_URL): Promise<boolean> {
  const { ok, error } = await pingRedis(url, 1000);
  if (error) console.warn(`skipping Redis tests: no Redis at ${url} (${error.message})`);
  return ok;
}

/** One PING on a client of its own that never retries: ok, or the error that stopped it. */
async function pingRedis(url: string, connectTimeoutMs: number): Promise<{ ok: boolean; error?: Error }> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return { ok: (await client.ping()) === 'PONG' };
  } catch (error) {
    return { ok: false, error: error as Error };
  } finally {
    client.disconnect();
  }
}

/** Polls `check` until it holds; resolves with the milliseconds it took, rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 25): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return Date.now() - started;
}

/** Deletes every key under a test's own prefix. */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  // A test that killed its Redis still cleans up: the failure is the caller's to ignore.
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Reads Prometheus text exposition into samples (enough for tests: no escapes inside label values). */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function sampleSum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** A loopback port nothing listens on (just released by the OS). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * A throwaway redis-server of the test's own on a free loopback port, for tests that kill, hang
 * and restart Redis: the shared one at 6379 is never touched. Nothing is kept on disk, so every
 * `start()` after a `stop()` is a Redis restarted empty.
 */
export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  /** SIGKILL: connections drop at once. */
  stop(): Promise<void>;
  /** SIGSTOP: the socket stays open and nothing answers, the worst case for a client. */
  hang(): void;
  resume(): void;
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  return {
    url,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      await waitFor(async () => (await pingRedis(url, 500)).ok, 10_000, 50).catch(() => {
        throw new Error(`redis-server did not start on ${url}`);
      });
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGCONT');
      running.kill('SIGKILL');
      await exited;
    },
    hang: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}
