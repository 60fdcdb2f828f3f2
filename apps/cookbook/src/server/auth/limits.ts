/** The product's account limits, by name. */

/** Failed logins allowed for one address and email within the window before 429. */
export const LOGIN_FAILURES_MAX = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * Failed logins allowed for one address, whatever the emails, within its window before it may no
 * longer try accounts it is unfamiliar with (password spraying). High: many people share an address.
 */
export const LOGIN_ADDRESS_FAILURES_MAX_DEFAULT = 100;
export const LOGIN_ADDRESS_WINDOW_S_DEFAULT = 15 * 60;
/** An account that signed in from an address stays familiar there this long (past the address cap). */
export const LOGIN_FAMILIAR_MS = 30 * 24 * 3600_000;
/** Sessions last a week unless SESSION_TTL_SECONDS says otherwise. */
export const SESSION_TTL_SECONDS_DEFAULT = 7 * 24 * 3600;
/** The session cookie: the site hands its name to the platform (site.ts), whose gateway never caches a request carrying it. */
export const SESSION_COOKIE = 'cookbook_session';
export const PASSWORD_MIN_LENGTH = 8;
export { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../app/login-rules.js';
export const NAME_MAX_LENGTH = 80;
