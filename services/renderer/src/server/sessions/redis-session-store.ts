/**
 * Sessions in Redis, so they outlive a renderer restart and are shared by every renderer.
 *   {prefix}session:{sha256(id)}   JSON { userId, createdAt, expiresAt }, with a PX expiry
 */
import type { Redis } from 'ioredis';
import { pingRedis } from '../../../../../lib/redis.js';
import { isSessionId, newSessionId, sessionKey } from './session-id.js';
import type { Session, SessionStore } from './types.js';

export interface RedisSessionStoreOptions {
  redis: Redis;
  prefix: string;
  /** Whether close() ends the connection (false when it is shared). */
  ownsConnection?: boolean;
}

export function createRedisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  const { redis, prefix } = options;
  const keyOf = (id: string) => `${prefix}session:${sessionKey(id)}`;

  return {
    kind: 'redis',
    async create(userId, ttlMs) {
      const id = newSessionId();
      const createdAt = Date.now();
      const session = { userId, createdAt, expiresAt: createdAt + ttlMs };
      await redis.set(keyOf(id), JSON.stringify(session), 'PX', Math.max(1, Math.round(ttlMs)));
      return { id, ...session };
    },
    async get(id) {
      if (!isSessionId(id)) return null;
      const raw = await redis.get(keyOf(id));
      if (!raw) return null;
      const session = parseSession(raw);
      if (!session || session.expiresAt <= Date.now()) return null;
      return { id, ...session };
    },
    async destroy(id) {
      if (isSessionId(id)) await redis.del(keyOf(id));
    },
    ping: () => pingRedis(redis),
    async close() {
      if (options.ownsConnection) redis.disconnect();
    },
  };
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
