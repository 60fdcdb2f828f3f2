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

/** The login page's query parameter naming why a sign-in posted by the plain form failed. */
export const LOGIN_FAILURE_PARAM = 'failed';
export type LoginFailure = 'invalid' | 'credentials' | 'blocked';

/** What the form says for each: the plain form's answer carries a code, never a message to show. */
export const LOGIN_FAILURE_MESSAGES: Record<LoginFailure, string> = {
  invalid: 'Enter your email address and password',
  credentials: LOGIN_MESSAGES.wrongCredentials,
  blocked: 'Too many failed sign-ins. Try again in a few minutes.',
};

/**
 * The message for a failure code from the login page's query; null for anything else. Own keys
 * only: `?failed=constructor` must not find Object's constructor and render it.
 */
export function loginFailureMessage(code: string | null): string | null {
  return code !== null && Object.hasOwn(LOGIN_FAILURE_MESSAGES, code) ? LOGIN_FAILURE_MESSAGES[code as LoginFailure] : null;
}

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
