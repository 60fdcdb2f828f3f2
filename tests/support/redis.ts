/**
 * Helpers for tests that need Redis: a reachable URL or a printed reason to skip, a key prefix
 * cleaned up, and a redis-server of the test's own for the tests that kill or hang it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from '@tern/cli/redis-keys';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

// The shared Redis and the cleanup of a key prefix live with the local stack (scripts/), which the
// production build compiles without tests/.
export { deleteKeys, TEST_REDIS_URL } from '@tern/cli/redis-keys';

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

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * A throwaway redis-server of the test's own on a free loopback port, for tests that kill, hang
 * and restart Redis: the shared one at 6379 is never touched. Nothing is kept on disk (unless
 * `args` turn persistence on, with a `--dir` of the test's own), so every `start()` after a
 * `stop()` is a Redis restarted empty.
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

export interface OwnRedisOptions {
  /** A port of the test's choosing (one a stand-in server held before); a free one otherwise. */
  port?: number;
  /** `requirepass` for the server; `url` then carries it, so the readiness ping gets in. */
  password?: string;
  /** More redis-server arguments; later ones win (`--appendonly yes --dir …`, `--maxmemory 3mb`). */
  args?: string[];
}

export async function ownRedis(options: OwnRedisOptions = {}): Promise<OwnRedis> {
  const port = options.port ?? (await freePort());
  const url = `redis://127.0.0.1:${port}`;
  const authed = options.password ? `redis://:${encodeURIComponent(options.password)}@127.0.0.1:${port}` : url;
  const auth = options.password ? ['--requirepass', options.password] : [];
  let child: ChildProcess | null = null;
  return {
    url,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth, ...(options.args ?? [])];
      child = spawn('redis-server', args, { stdio: 'ignore' });
      await waitFor(async () => (await pingRedis(authed, 500)).ok, 10_000, 50).catch(() => {
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
