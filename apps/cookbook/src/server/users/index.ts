/** The user store: Redis when a connection is given, a JSON file otherwise. */
import type { Redis } from 'ioredis';
import { createFileUserStore } from './file-user-store.js';
import { createRedisUserStore } from './redis-user-store.js';
import type { ScryptCost } from './password.js';
import type { UserStore } from './types.js';

export type { NewUser, User, UserStore } from './types.js';
export { normalizeEmail, UserExistsError } from './types.js';

export function createUserStore(options: { redis?: Redis | undefined; prefix: string; file: string; cost?: ScryptCost }): UserStore {
  const { redis, prefix, file, cost } = options;
  return redis ? createRedisUserStore({ redis, prefix, cost }) : createFileUserStore({ file, cost });
}
