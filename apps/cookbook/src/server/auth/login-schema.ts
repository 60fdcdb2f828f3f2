/** What a login must carry, with the messages the form shows beside each field. */
import { z } from 'zod';
import { createError } from '@tern/shared/errors/errors';
import { COOKBOOK_SERVER_ERRORS } from '../error-codes.js';
import { EMAIL_MAX_LENGTH, LOGIN_MESSAGES as M, PASSWORD_MAX_LENGTH } from '../../app/login-rules.js';

export const loginSchema = z.object({
  email: z
    .string({ error: M.emailMissing })
    .trim()
    .min(1, M.emailMissing)
    .max(EMAIL_MAX_LENGTH, M.emailTooLong)
    .pipe(z.email(M.emailInvalid)),
  password: z.string({ error: M.passwordMissing }).min(1, M.passwordMissing).max(PASSWORD_MAX_LENGTH, M.passwordTooLong),
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
  throw createError({ ...COOKBOOK_SERVER_ERRORS.COOKBOOK_LOGIN_INVALID(first), data: { fields } });
}
