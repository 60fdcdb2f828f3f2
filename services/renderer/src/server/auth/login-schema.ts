/** What a login must carry, with the messages the form shows beside each field. */
import { z } from 'zod';
import { createError } from '../../../../../lib/errors.js';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './limits.js';

export const loginSchema = z.object({
  email: z
    .string({ error: 'Enter your email address' })
    .trim()
    .min(1, 'Enter your email address')
    .max(EMAIL_MAX_LENGTH, `An email address has at most ${EMAIL_MAX_LENGTH} characters`)
    .pipe(z.email('Enter a valid email address, such as name@example.com')),
  password: z
    .string({ error: 'Enter your password' })
    .min(1, 'Enter your password')
    .max(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters`),
});

export type LoginInput = z.infer<typeof loginSchema>;

/** The body as a login, or a 400 whose data.fields names each bad field with its message. */
export function parseLogin(body: unknown): LoginInput {
  const result = loginSchema.safeParse(body ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    fields[field] ??= issue.message;
  }
  const first = Object.values(fields)[0] ?? 'Check the form';
  throw createError({ statusCode: 400, statusMessage: 'Invalid login', message: first, data: { fields } });
}
