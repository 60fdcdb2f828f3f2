/** Sessions in this process's memory (the embedded mode): expired ones are dropped when met and swept. */
import { isSessionId, newSessionId, sessionKey } from './session-id.js';
import type { Session, SessionStore } from './types.js';

export interface MemorySessionStoreOptions {
  /** How often expired sessions are swept; 0 turns the sweep off. */
  sweepIntervalMs?: number;
  now?: () => number;
}

export function createMemorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Omit<Session, 'id'>>();
  const sweepMs = options.sweepIntervalMs ?? 60_000;
  const sweeper = sweepMs > 0 ? setInterval(sweep, sweepMs) : undefined;
  sweeper?.unref();

  function sweep(): void {
    const t = now();
    for (const [key, session] of sessions) if (session.expiresAt <= t) sessions.delete(key);
  }

  return {
    kind: 'memory',
    async create(userId, ttlMs) {
      const id = newSessionId();
      const createdAt = now();
      const session = { userId, createdAt, expiresAt: createdAt + ttlMs };
      sessions.set(sessionKey(id), session);
      return { id, ...session };
    },
    async get(id) {
      if (!isSessionId(id)) return null;
      const key = sessionKey(id);
      const session = sessions.get(key);
      if (!session) return null;
      if (session.expiresAt <= now()) {
        sessions.delete(key);
        return null;
      }
      return { id, ...session };
    },
    async destroy(id) {
      if (isSessionId(id)) sessions.delete(sessionKey(id));
    },
    async ping() {
      return true;
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      sessions.clear();
    },
  };
}
