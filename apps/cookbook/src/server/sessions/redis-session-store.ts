/**
 * Sessions in Redis, so they outlive a renderer restart and are shared by every renderer.
 *   {prefix}session:{sha256(id)}   JSON { userId, createdAt, expiresAt }, with no Redis TTL
 *   {prefix}sessions:expiry        sorted set of those keys, scored by expiresAt
 *
 * No TTL on purpose: with the documented `maxmemory-policy volatile-lru` Redis only evicts keys
 * that have one (the render cache, client files, locks), so a flood of cached pages cannot sign
 * anyone out (docs/decisions/durable-data.md). The expiry is ours instead: `get` refuses an
 * expired session, and every `create` deletes a bounded batch of expired ones, so they never pile up.
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { pingRedis } from '@tern/shared/redis/outage';
import { isSessionId, newSessionId, sessionKey } from './session-id.js';
import type { Session, SessionStore } from './types.js';

/** Expired sessions deleted per sign-in: more than one, so they shrink whenever anyone signs in. */
const SWEEP_BATCH = 50;

export interface RedisSessionStoreOptions {
  redis: Redis;
  prefix: string;
  /** Whether close() ends the connection (false when it is shared). */
  ownsConnection?: boolean;
  /** The clock that stamps and expires sessions (tests inject one); Redis's own expiry stays real time. */
  now?: () => number;
}

export function createRedisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  const { redis, prefix } = options;
  const now = options.now ?? Date.now;
  const keyOf = (id: string) => `${prefix}session:${sessionKey(id)}`;
  const expiryKey = `${prefix}sessions:expiry`;

  async function sweep(at: number): Promise<void> {
    const expired = await redis.zrangebyscore(expiryKey, '-inf', at, 'LIMIT', 0, SWEEP_BATCH);
    if (expired.length > 0)
      await run(
        redis
          .multi()
          .del(...expired)
          .zrem(expiryKey, ...expired),
      );
  }

  return {
    kind: 'redis',
    async create(userId, ttlMs) {
      const id = newSessionId();
      const createdAt = now();
      const session = { userId, createdAt, expiresAt: createdAt + Math.max(1, Math.round(ttlMs)) };
      const key = keyOf(id);
      await run(redis.multi().set(key, JSON.stringify(session)).zadd(expiryKey, session.expiresAt, key));
      await sweep(createdAt);
      return { id, ...session };
    },
    async get(id) {
      if (!isSessionId(id)) return null;
      const raw = await redis.get(keyOf(id));
      if (!raw) return null;
      const session = parseSession(raw);
      if (!session || session.expiresAt <= now()) return null;
      return { id, ...session };
    },
    async destroy(id) {
      if (!isSessionId(id)) return;
      const key = keyOf(id);
      await run(redis.multi().del(key).zrem(expiryKey, key));
    },
    ping: () => pingRedis(redis),
    async close() {
      if (options.ownsConnection) redis.disconnect();
    },
  };
}

/** A transaction whose commands all succeeded (exec() reports a refused write, such as OOM, without throwing). */
async function run(batch: ChainableCommander): Promise<void> {
  const results = await batch.exec();
  if (!results) throw new Error('redis transaction failed');
  for (const [error] of results) if (error) throw error;
}

function parseSession(raw: string): Omit<Session, 'id'> | null {
  try {
    const value = JSON.parse(raw) as Partial<Session>;
    if (typeof value.userId !== 'string' || typeof value.createdAt !== 'number' || typeof value.expiresAt !== 'number') return null;
    return { userId: value.userId, createdAt: value.createdAt, expiresAt: value.expiresAt };
  } catch {
    return null;
  }
}
