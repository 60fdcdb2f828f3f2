/**
 * A signed-in visitor's parts, kept by the gateway that asked for them (docs/decisions/personal-holes.md),
 * so their next request of the same page costs no trip to the renderer. A kept answer is theirs
 * alone: its key holds the whole Cookie header (any cookie that changes makes a new key), the
 * address asked for and the entry's parts. Only a visitor with a session cookie and no other
 * credentials is kept (an Authorization header is not in the key).
 *
 * A kept answer stops being used:
 * - after `ttlMs`: what no request here shows, a session ended elsewhere (expired, revoked, signed
 *   out on another device), is seen within that time;
 * - when its visitor changes anything: an unsafe request (POST, PUT, PATCH, DELETE) that carries
 *   their session, once answered. This gateway forgets their answers at once; the answer sets the
 *   version cookie, which the browser sends with its next request to any gateway, so none of them
 *   has a key for it yet.
 * Drawn parts are dropped when they were asked for before the change was answered: a request in
 * flight across a save never keeps the state from before it.
 */
import { Lru } from '@tern/shared/http-cache/lru';

/** Set on every answer to an unsafe request of a visitor with a session: a new value per change. */
export const VERSION_COOKIE = 'tern-pv';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Parts as drawn for one visitor, one address and one entry. */
export interface KeptParts {
  /** Its key in the memory ('' for an answer not kept). */
  key: string;
  parts: Buffer[];
  askedAt: number;
  /** The whole gzip body with these parts (personal-gzip.ts), made on their first gzip answer. */
  gzipBody?: Buffer;
}

/** The bytes a kept answer holds: its key, its parts and, once made, its gzip body. */
const sizeOf = (parts: KeptParts) => parts.parts.reduce((sum, part) => sum + part.length, parts.key.length) + (parts.gzipBody?.length ?? 0);

export interface PartsMemoryOptions {
  /** 0 keeps nothing: every signed-in page asks the renderer. */
  ttlMs: number;
  /** The bytes of parts kept at most (their HTML, and its gzip form). */
  maxBytes: number;
  now: () => number;
}

export interface PartsMemory {
  /** Whether anything is kept at all (`ttlMs` > 0). */
  readonly enabled: boolean;
  get(key: string, session: string): KeptParts | undefined;
  keep(key: string, session: string, parts: Buffer[], askedAt: number): KeptParts;
  /** Gives a kept answer its gzip body, counted in the memory's bytes from now on. */
  withGzipBody(parts: KeptParts, body: Buffer): Buffer;
  /** The visitor with this session changed something (answered now): their answers are not used again. */
  changed(session: string): void;
}

/** The key of a visitor's parts: null when they are not kept (no session cookie, or other credentials). */
export function partsKey(cookie: string | undefined, authorization: string | undefined, address: string, layout: string): string | null {
  if (!cookie || authorization !== undefined) return null;
  return `${layout}\n${address}\n${cookie}`;
}

/** Whether an answer to this request marks its visitor's state as changed. */
export const changesState = (method: string): boolean => UNSAFE.has(method);

/** A version cookie's value: unique per change, on any gateway (time, then a random tail). */
export function versionValue(now: number): string {
  return `${now.toString(36)}.${Math.random().toString(36).slice(2, 8)}`;
}

export function createPartsMemory({ ttlMs, maxBytes, now }: PartsMemoryOptions): PartsMemory {
  const kept = new Lru<KeptParts>({ maxEntries: 100_000, maxSize: maxBytes });
  // When each visitor last changed something. An entry older than ttlMs is moot (every answer asked
  // before it has expired), so losing one to the bound past that time changes nothing.
  const changedAt = new Lru<number>({ maxEntries: 200_000 });

  const usable = (parts: KeptParts, session: string, at: number): boolean =>
    at - parts.askedAt < ttlMs && parts.askedAt > (changedAt.get(session) ?? -Infinity);

  return {
    enabled: ttlMs > 0,
    get(key, session) {
      if (ttlMs <= 0) return undefined;
      const parts = kept.get(key);
      if (!parts) return undefined;
      if (usable(parts, session, now())) return parts;
      kept.delete(key);
      return undefined;
    },
    keep(key, session, parts, askedAt) {
      const value: KeptParts = { key, parts, askedAt };
      if (ttlMs > 0 && usable(value, session, askedAt)) kept.set(key, value, sizeOf(value));
      return value;
    },
    withGzipBody(parts, body) {
      parts.gzipBody = body;
      // Counted again with its body, if it is still kept: lru-cache sizes an entry when it is set, and
      // setting the same value again keeps its old size, so it goes and comes back.
      if (parts.key && kept.get(parts.key) === parts) {
        kept.delete(parts.key);
        kept.set(parts.key, parts, sizeOf(parts));
      }
      return body;
    },
    changed(session) {
      changedAt.set(session, now());
    },
  };
}
