/** The session store: Redis when a connection is given, this process's memory otherwise. */
import type { Redis } from 'ioredis';
import { createMemorySessionStore } from './memory-session-store.js';
import { createRedisSessionStore } from './redis-session-store.js';
import type { SessionStore } from './types.js';

export type { Session, SessionStore } from './types.js';
export { isSessionId } from './session-id.js';

export function createSessionStore(options: { redis?: Redis | undefined; prefix: string; now?: () => number }): SessionStore {
  const { redis, prefix, now } = options;
  return redis ? createRedisSessionStore({ redis, prefix, now }) : createMemorySessionStore({ now });
}
