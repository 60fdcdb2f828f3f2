/**
 * Users in Redis:
 *   {prefix}user:{id}            JSON of the record (with its password hash)
 *   {prefix}user-email:{email}   the id of the user with that email (SET NX keeps emails unique)
 *   {prefix}saved:{userId}       sorted set of recipe ids, scored by when they were saved
 * None of them has a TTL: with `maxmemory-policy volatile-lru` Redis never evicts them (README).
 */
import type { Redis } from 'ioredis';
import { pingRedis } from '@tern/shared/redis/outage';
import { checkPassword, newUserRecord, publicUser } from './credentials.js';
import type { ScryptCost } from './password.js';
import { normalizeEmail, UserExistsError, type SavedEntry, type UserRecord, type UsersDump, type UserStore } from './types.js';

/** Deletes an email's claim only when it holds the given id (a compare-and-delete, atomic in Redis). */
const RELEASE_EMAIL = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

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

  async function savedEntries(userId: string): Promise<SavedEntry[]> {
    const flat = await redis.zrevrange(keys.saved(userId), 0, -1, 'WITHSCORES');
    const entries: SavedEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) entries.push({ recipeId: flat[i]!, savedAt: Number(flat[i + 1]) });
    return entries;
  }

  async function allRecords(): Promise<UserRecord[]> {
    // Glob specials in the prefix are escaped; `user:*` does not match `user-email:*`.
    const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}user:*`;
    const records: UserRecord[] = [];
    for await (const found of redis.scanStream({ match, count: 500 }) as AsyncIterable<string[]>) {
      if (found.length === 0) continue;
      for (const raw of await redis.mget(...found)) if (raw) records.push(JSON.parse(raw) as UserRecord);
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Adds one imported user unless its email or id is taken; the email claim keeps it atomic. */
  async function restoreOne(user: UserRecord, saved: SavedEntry[]): Promise<boolean> {
    if (await redis.exists(keys.user(user.id))) return false;
    if ((await redis.set(keys.email(user.email), user.id, 'NX')) !== 'OK') return false;
    const batch = redis.multi().set(keys.user(user.id), JSON.stringify(user));
    for (const entry of saved) batch.zadd(keys.saved(user.id), 'NX', entry.savedAt, entry.recipeId);
    await batch.exec();
    return true;
  }

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
    async remove(userId) {
      const found = await record(userId);
      if (!found) return false;
      // The email claim goes only while it names this user: a new account may have taken it since.
      await redis.multi().del(keys.user(userId), keys.saved(userId)).eval(RELEASE_EMAIL, 1, keys.email(found.email), userId).exec();
      return true;
    },
    async dump(): Promise<UsersDump> {
      const users = await allRecords();
      const saved: UsersDump['saved'] = {};
      for (const user of users) {
        const entries = await savedEntries(user.id);
        if (entries.length > 0) saved[user.id] = entries;
      }
      return { version: 1, users, saved };
    },
    async restore(dump) {
      const result = { added: [] as string[], skipped: [] as string[] };
      for (const user of dump.users) {
        const added = await restoreOne(user, dump.saved[user.id] ?? []);
        (added ? result.added : result.skipped).push(user.email);
      }
      return result;
    },
    ping: () => pingRedis(redis),
    async close() {
      if (options.ownsConnection) redis.disconnect();
    },
  };
}
