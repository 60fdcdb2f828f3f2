/** What every Redis-backed store shares: resilient client options and a ping that never throws. */
import type { Redis, RedisOptions } from 'ioredis';

/** Fail fast while Redis is away (callers degrade) and reconnect forever. */
export const resilientRedisOptions: RedisOptions = {
  maxRetriesPerRequest: 1,
  commandTimeout: 1000,
  connectTimeout: 2000,
  retryStrategy: (times) => Math.min(times * 200, 2000),
};

/** True when Redis answers now; false (never an exception) when it does not. */
export async function pingRedis(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}
