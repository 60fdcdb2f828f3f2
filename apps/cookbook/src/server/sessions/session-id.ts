/** Session ids: 256 random bits, base64url; stores key them by a hash so a leaked store holds no cookie. */
import { createHash, randomBytes } from 'node:crypto';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/** The key a store files a session under. */
export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}
