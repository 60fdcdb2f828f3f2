/**
 * Passwords hashed with scrypt (node:crypto), a random salt per user, compared in constant time.
 * Stored as `scrypt$N$r$p$salt$hash` (base64url) so the cost can rise without breaking old hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** About 100 ms on a small server: slow for a guesser, fine for one login. */
export const DEFAULT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return null;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((v) => Number.isInteger(v) && v > 0)) return null;
  return { cost, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** True when `password` matches `stored`; a malformed hash is simply a mismatch. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length !== KEY_LENGTH) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return timingSafeEqual(key, parsed.key);
}

const decoys = new Map<string, Promise<string>>();

/**
 * The same work as checking a real password, for an email nobody has: an unknown address must
 * cost as much as a known one, or timing tells which addresses exist.
 */
export async function burnPasswordCheck(password: string, cost: ScryptCost = DEFAULT_COST): Promise<false> {
  const key = `${cost.N}:${cost.r}:${cost.p}`;
  let decoy = decoys.get(key);
  if (!decoy) decoys.set(key, (decoy = hashPassword(randomBytes(16).toString('hex'), cost)));
  await verifyPassword(password, await decoy);
  return false;
}
