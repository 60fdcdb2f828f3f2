/**
 * The login form's rules and messages. Browser-safe: the login page checks with these before it
 * sends, and the server's zod schema (login-schema.ts) says the same words when it refuses.
 */
export const EMAIL_MAX_LENGTH = 254;
/** Long enough for any passphrase, short enough that scrypt is never handed a megabyte. */
export const PASSWORD_MAX_LENGTH = 256;

export const LOGIN_MESSAGES = {
  emailMissing: 'Enter your email address',
  emailTooLong: `An email address has at most ${EMAIL_MAX_LENGTH} characters`,
  emailInvalid: 'Enter a valid email address, such as name@example.com',
  passwordMissing: 'Enter your password',
  passwordTooLong: `A password has at most ${PASSWORD_MAX_LENGTH} characters`,
  wrongCredentials: 'Wrong email or password',
} as const;

export type LoginFieldErrors = Partial<Record<'email' | 'password', string>>;

/** One @, something on each side, a dot in the domain, no spaces: what the server's check accepts in practice. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkLoginFields(email: string, password: string): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = LOGIN_MESSAGES.emailMissing;
  else if (trimmed.length > EMAIL_MAX_LENGTH) errors.email = LOGIN_MESSAGES.emailTooLong;
  else if (!EMAIL_SHAPE.test(trimmed)) errors.email = LOGIN_MESSAGES.emailInvalid;
  if (!password) errors.password = LOGIN_MESSAGES.passwordMissing;
  else if (password.length > PASSWORD_MAX_LENGTH) errors.password = LOGIN_MESSAGES.passwordTooLong;
  return errors;
}
