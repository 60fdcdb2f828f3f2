/**
 * Failed logins, counted per key (client address + email) over a sliding window: once `max`
 * failures fall inside it, further attempts wait until the oldest one leaves the window.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface LoginLimiter {
  readonly kind: 'redis' | 'memory';
  /** Milliseconds until the key may try again; 0 when it may now. */
  blockedFor(key: string): Promise<number>;
  /** Counts a failure; answers blockedFor after it. */
  fail(key: string): Promise<number>;
  /** Forgets the key's failures (after a successful login). */
  reset(key: string): Promise<void>;
}

export interface LimiterSettings {
  max: number;
  windowMs: number;
  now?: () => number;
}

/** Past this many keys, stale ones are dropped before a new failure is counted. */
const MEMORY_KEYS_MAX = 10_000;

function waitFrom(times: number[], settings: LimiterSettings, now: number): number {
  if (times.length < settings.max) return 0;
  const oldestCounted = times[times.length - settings.max]!;
  return Math.max(1, oldestCounted + settings.windowMs - now);
}

export function createMemoryLoginLimiter(settings: LimiterSettings): LoginLimiter {
  const now = settings.now ?? Date.now;
  const failures = new Map<string, number[]>();
  const prune = (t: number) => {
    for (const [key, times] of failures) if ((times.at(-1) ?? 0) <= t - settings.windowMs) failures.delete(key);
  };
  const recent = (key: string, t: number) => (failures.get(key) ?? []).filter((time) => time > t - settings.windowMs);
  return {
    kind: 'memory',
    async blockedFor(key) {
      const t = now();
      const times = recent(key, t);
      if (times.length === 0) failures.delete(key);
      else failures.set(key, times);
      return waitFrom(times, settings, t);
    },
    async fail(key) {
      const t = now();
      if (failures.size >= MEMORY_KEYS_MAX) prune(t);
      // Only the last `max` failures matter, so a flood cannot grow one entry without bound.
      const times = [...recent(key, t), t].slice(-settings.max);
      failures.set(key, times);
      return waitFrom(times, settings, t);
    },
    async reset(key) {
      failures.delete(key);
    },
  };
}

/** The same in Redis: one sorted set per key, scored by failure time, expiring with the window. */
export function createRedisLoginLimiter(settings: LimiterSettings & { redis: Redis; prefix: string }): LoginLimiter {
  const { redis } = settings;
  const now = settings.now ?? Date.now;
  const keyOf = (key: string) => `${settings.prefix}login-failures:${createHash('sha256').update(key).digest('base64url')}`;

  async function times(key: string, t: number, add: boolean): Promise<number[]> {
    const k = keyOf(key);
    const batch = redis.multi().zremrangebyscore(k, '-inf', t - settings.windowMs);
    if (add) batch.zadd(k, t, `${t}:${randomBytes(4).toString('hex')}`).pexpire(k, settings.windowMs);
    batch.zrange(k, 0, -1, 'WITHSCORES');
    const results = (await batch.exec()) ?? [];
    const last = results.at(-1);
    if (!last || last[0]) throw last?.[0] ?? new Error('redis transaction failed');
    const flat = last[1] as string[];
    return flat.filter((_, i) => i % 2 === 1).map(Number);
  }

  return {
    kind: 'redis',
    async blockedFor(key) {
      const t = now();
      return waitFrom(await times(key, t, false), settings, t);
    },
    async fail(key) {
      const t = now();
      return waitFrom(await times(key, t, true), settings, t);
    },
    async reset(key) {
      await redis.del(keyOf(key));
    },
  };
}
