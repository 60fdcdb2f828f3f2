/** A signed-in visitor's session, kept on the server; the browser only holds its opaque id. */
export interface Session {
  /** The opaque id the cookie carries (never stored as such: stores key it by its hash). */
  id: string;
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  expiresAt: number;
}

export interface SessionStore {
  readonly kind: 'redis' | 'memory';
  /** A new session with a fresh random id, alive for `ttlMs`. */
  create(userId: string, ttlMs: number): Promise<Session>;
  /** The live session of an id; null when unknown, malformed or expired. */
  get(id: string): Promise<Session | null>;
  /** Forgets a session; unknown ids are fine. */
  destroy(id: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
