/** The session store: Redis when a connection is given, this process's memory otherwise. */
import type { Redis } from 'ioredis';
import { createMemorySessionStore } from './memory-session-store.js';
import { createRedisSessionStore } from './redis-session-store.js';
import type { SessionStore } from './types.js';

export type { Session, SessionStore } from './types.js';
export { isSessionId } from './session-id.js';

export function createSessionStore(options: { redis?: Redis | undefined; prefix: string }): SessionStore {
  return options.redis ? createRedisSessionStore({ redis: options.redis, prefix: options.prefix }) : createMemorySessionStore();
}
