/**
 * Sign-in and sign-out by the HTML forms themselves: before the page has hydrated (a click in its
 * first frames) or with no JavaScript at all. A form posts `application/x-www-form-urlencoded` to
 * the same route the script calls with JSON; the answer is then a page to go to (303): the
 * `redirect` field's path on success, the login page with a failure code otherwise. Without this,
 * the browser's default for a form with no method sent email and password in the URL of a GET,
 * and the sign-out button did nothing until the page had hydrated. The save button's form uses the
 * same helpers (server/saved/saved-routes.ts).
 *
 * After a failure the email typed comes back to the form, as it stays in the script's form: in a
 * cookie for the login page alone (HttpOnly, a minute), never in the URL, where logs would keep it.
 */
import { parseCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from '@tern/shared/errors/errors';
import { safeRedirect } from '../../app/components/safe-redirect.js';
import { LOGIN_PAGE } from '../../app/account-routes.js';
import { LOGIN_FAILURE_PARAM, type LoginFailure } from '../../app/login-rules.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** An email, a password and a path: a few hundred bytes; anything much larger is not our form. */
const FORM_BODY_LIMIT = 8 * 1024;

const FAILURES: Record<number, LoginFailure> = { 400: 'invalid', 401: 'credentials', 429: 'blocked' };

const TYPED_EMAIL_COOKIE = 'cookbook_login_email';
const TYPED_EMAIL_SECONDS = 60;
/** The longest address RFC 5321 allows; anything longer is not worth carrying back. */
const EMAIL_MAX_LENGTH = 254;

/** The email a plain-form sign-in just failed with, for the login page to fill in again; '' if none. */
export function typedEmailFrom(cookieHeader: string | null | undefined): string {
  const email = cookieHeader ? parseCookie(cookieHeader)[TYPED_EMAIL_COOKIE] : undefined;
  return email && email.length <= EMAIL_MAX_LENGTH ? email : '';
}

const typedEmailOptions = (request: FastifyRequest) =>
  ({ httpOnly: true, sameSite: 'lax', path: LOGIN_PAGE, secure: request.protocol === 'https' }) as const;

function keepTypedEmail(request: FastifyRequest, reply: FastifyReply, email: string | undefined): void {
  const value = email?.trim() ?? '';
  if (value && value.length <= EMAIL_MAX_LENGTH) {
    reply.setCookie(TYPED_EMAIL_COOKIE, value, { ...typedEmailOptions(request), maxAge: TYPED_EMAIL_SECONDS });
  } else reply.clearCookie(TYPED_EMAIL_COOKIE, typedEmailOptions(request));
}

/**
 * After any sign-in that succeeds, by the form or by the script (a failed plain form, then a
 * hydrated page's JSON sign-in): the address typed is not kept for whoever opens the login page next.
 */
export function forgetTypedEmail(request: FastifyRequest, reply: FastifyReply): void {
  if (typedEmailFrom(request.headers.cookie)) reply.clearCookie(TYPED_EMAIL_COOKIE, typedEmailOptions(request));
}

/** Parses form bodies in this scope; a repeated field keeps its first value. */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(body as string)) fields[name] ??= value;
    done(null, fields);
  });
}

export function isFormPost(request: FastifyRequest): boolean {
  return request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase() === FORM_TYPE;
}

/** The fields of a form body (acceptFormBodies), or none for any other body. */
export function formFields(request: FastifyRequest): Record<string, string | undefined> {
  return isFormPost(request) ? ((request.body ?? {}) as Record<string, string | undefined>) : {};
}

/** The page a form names to go to next, if it is one of this site's. */
export function redirectField(request: FastifyRequest): string {
  return safeRedirect(formFields(request).redirect);
}

/** A page to go to (303), never stored: the answer to a plain form. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

/** After the sign-out: the page the form names (the script's own choice, made when it rendered). */
export function answerFormLogout(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return seeOther(reply, redirectField(request));
}

/** Runs the sign-in and answers with where the browser goes next. */
export async function answerFormLogin(request: FastifyRequest, reply: FastifyReply, signIn: () => Promise<unknown>): Promise<FastifyReply> {
  const fields = formFields(request);
  const redirectTo = redirectField(request);
  let target = redirectTo;
  try {
    await signIn();
  } catch (error) {
    const failure = FAILURES[toHttpError(error).statusCode];
    if (!failure) throw error;
    const query = new URLSearchParams({ ...(redirectTo === '/' ? {} : { redirect: redirectTo }), [LOGIN_FAILURE_PARAM]: failure });
    target = `${LOGIN_PAGE}?${query}`;
    keepTypedEmail(request, reply, fields.email);
  }
  return seeOther(reply, target);
}
