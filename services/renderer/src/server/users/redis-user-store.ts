/**
 * Users in Redis:
 *   {prefix}user:{id}            JSON of the record (with its password hash)
 *   {prefix}user-email:{email}   the id of the user with that email (SET NX keeps emails unique)
 *   {prefix}saved:{userId}       sorted set of recipe ids, scored by when they were saved
 */
import type { Redis } from 'ioredis';
import { pingRedis } from '../../../../../lib/redis.js';
import { checkPassword, newUserRecord, publicUser, type UserRecord } from './credentials.js';
import type { ScryptCost } from './password.js';
import { normalizeEmail, UserExistsError, type UserStore } from './types.js';

export interface RedisUserStoreOptions {
  redis: Redis;
  prefix: string;
  cost?: ScryptCost;
  ownsConnection?: boolean;
}

export function createRedisUserStore(options: RedisUserStoreOptions): UserStore {
  const { redis, prefix, cost } = options;
  const keys = {
    user: (id: string) => `${prefix}user:${id}`,
    email: (email: string) => `${prefix}user-email:${normalizeEmail(email)}`,
    saved: (userId: string) => `${prefix}saved:${userId}`,
  };

  async function record(id: string | null): Promise<UserRecord | null> {
    if (!id) return null;
    const raw = await redis.get(keys.user(id));
    return raw ? (JSON.parse(raw) as UserRecord) : null;
  }
  const byEmail = async (email: string) => record(await redis.get(keys.email(email)));

  return {
    kind: 'redis',
    async add(input) {
      const created = await newUserRecord(input, cost);
      const claimed = await redis.set(keys.email(created.email), created.id, 'NX');
      if (claimed !== 'OK') throw new UserExistsError(created.email);
      await redis.set(keys.user(created.id), JSON.stringify(created));
      return publicUser(created);
    },
    async verify(email, password) {
      return checkPassword(await byEmail(email), password, cost);
    },
    async get(id) {
      const found = await record(id);
      return found ? publicUser(found) : null;
    },
    async findByEmail(email) {
      const found = await byEmail(email);
      return found ? publicUser(found) : null;
    },
    async saved(userId) {
      return redis.zrevrange(keys.saved(userId), 0, -1);
    },
    async save(userId, recipeId) {
      return (await redis.zadd(keys.saved(userId), 'NX', Date.now(), recipeId)) === 1;
    },
    async unsave(userId, recipeId) {
      return (await redis.zrem(keys.saved(userId), recipeId)) === 1;
    },
    ping: () => pingRedis(redis),
    async close() {
      if (options.ownsConnection) redis.disconnect();
    },
  };
}
