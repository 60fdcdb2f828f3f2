/** The user store: Redis when a connection is given, a JSON file otherwise. */
import type { Redis } from 'ioredis';
import { createFileUserStore } from './file-user-store.js';
import { createRedisUserStore } from './redis-user-store.js';
import type { UserStore } from './types.js';

export type { NewUser, User, UserStore } from './types.js';
export { normalizeEmail, UserExistsError } from './types.js';

export function createUserStore(options: { redis?: Redis | undefined; prefix: string; file: string }): UserStore {
  return options.redis
    ? createRedisUserStore({ redis: options.redis, prefix: options.prefix })
    : createFileUserStore({ file: options.file });
}
