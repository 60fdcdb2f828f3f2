/**
 * Reading a users dump (`npm run users -- import`, or a users file given as one): checked before
 * anything is written, so a truncated or foreign file adds nobody.
 */
import { z } from 'zod';
import { normalizeEmail, type UsersDump } from './types.js';

const record = z.object({
  id: z.string().min(1),
  email: z
    .string()
    .min(3)
    .transform((email) => normalizeEmail(email)),
  name: z.string().min(1),
  createdAt: z.string().min(1),
  // Only the hashes this code makes (password.ts): scrypt$N$r$p$salt$hash.
  passwordHash: z.string().regex(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/, 'expected a scrypt password hash'),
});

const dumpSchema = z.object({
  version: z.literal(1),
  users: z.array(record),
  saved: z.record(z.string(), z.array(z.object({ recipeId: z.string().min(1), savedAt: z.number() }))).default({}),
});

export function parseUsersDump(text: string, source: string): UsersDump {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON`, { cause: error });
  }
  const parsed = dumpSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${source} is not a users export: ${issue.path.join('.') || 'top level'}: ${issue.message}`);
  }
  return parsed.data;
}
