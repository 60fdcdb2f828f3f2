/** What both user stores share: a stored record, making one, and checking a password against it. */
import { randomUUID } from 'node:crypto';
import { burnPasswordCheck, DEFAULT_COST, hashPassword, verifyPassword, type ScryptCost } from './password.js';
import { normalizeEmail, type NewUser, type User, type UserRecord } from './types.js';

export async function newUserRecord(input: NewUser, cost: ScryptCost = DEFAULT_COST): Promise<UserRecord> {
  return {
    id: randomUUID(),
    email: normalizeEmail(input.email),
    name: input.name.trim(),
    createdAt: new Date().toISOString(),
    passwordHash: await hashPassword(input.password, cost),
  };
}

export function publicUser(record: UserRecord): User {
  return { id: record.id, email: record.email, name: record.name, createdAt: record.createdAt };
}

/** One scrypt run whether the record exists or not. */
export async function checkPassword(
  record: UserRecord | null | undefined,
  password: string,
  cost: ScryptCost = DEFAULT_COST,
): Promise<User | null> {
  if (!record) return burnPasswordCheck(password, cost).then(() => null);
  return (await verifyPassword(password, record.passwordHash)) ? publicUser(record) : null;
}
