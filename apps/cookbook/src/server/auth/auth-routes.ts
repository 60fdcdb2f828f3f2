/**
 * POST /api/auth/login, POST /api/auth/logout, GET /api/auth/session. A login gets a brand new
 * session (the old one is dropped); who may try a password is login-guard.ts's to say.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { COOKBOOK_SERVER_ERRORS } from '../error-codes.js';
import type { Accounts } from '../accounts-type.js';
import { normalizeEmail, type User } from '../users/index.js';
import { signedInFrom } from './current-user.js';
import { answerFormLogin, answerFormLogout, forgetTypedEmail, isFormPost } from './plain-forms.js';
import { LOGIN_ROUTE, LOGOUT_ROUTE } from '../../app/account-routes.js';
import { LOGIN_MESSAGES } from '../../app/login-rules.js';
import { parseLogin } from './login-schema.js';
import { clearSessionCookie, sessionIdFrom, setSessionCookie } from './session-cookie.js';

/** What the browser learns about the signed-in visitor. */
export interface SessionAnswer {
  user: Pick<User, 'id' | 'email' | 'name'> | null;
  expiresAt?: string;
}

const viewOf = (user: User) => ({ id: user.id, email: user.email, name: user.name });

export async function authRoutes(app: FastifyInstance, { accounts }: { accounts: Accounts }): Promise<void> {
  const { sessions, users, loginGuard, sessionTtlSeconds } = accounts;

  app.post(LOGIN_ROUTE, async (request, reply) =>
    isFormPost(request) ? answerFormLogin(request, reply, () => signIn(request, reply)) : signIn(request, reply),
  );

  async function signIn(request: FastifyRequest, reply: FastifyReply): Promise<SessionAnswer> {
    const { email, password } = parseLogin(request.body);
    const address = request.ip;
    const account = normalizeEmail(email);
    await refuseWhileBlocked(reply, await loginGuard.blockedFor(address, account));
    const user = await users.verify(email, password);
    if (!user) {
      await loginGuard.failed(address, account);
      throw createError(COOKBOOK_SERVER_ERRORS.COOKBOOK_WRONG_CREDENTIALS(LOGIN_MESSAGES.wrongCredentials));
    }
    await loginGuard.succeeded(address, account);
    const previous = sessionIdFrom(request.headers.cookie);
    if (previous) await sessions.destroy(previous);
    const session = await sessions.create(user.id, sessionTtlSeconds * 1000);
    setSessionCookie(request, reply, session.id, sessionTtlSeconds);
    forgetTypedEmail(request, reply);
    request.log.info({ userId: user.id }, 'signed in');
    return { user: viewOf(user), expiresAt: new Date(session.expiresAt).toISOString() };
  }

  app.post(LOGOUT_ROUTE, async (request, reply) => {
    const id = sessionIdFrom(request.headers.cookie);
    if (id) await sessions.destroy(id);
    clearSessionCookie(request, reply);
    return isFormPost(request) ? answerFormLogout(request, reply) : ({ user: null } satisfies SessionAnswer);
  });

  app.get('/api/auth/session', async (request: FastifyRequest, reply): Promise<SessionAnswer> => {
    reply.header('cache-control', 'no-store');
    const current = await signedInFrom(request.headers.cookie, sessions, users);
    if (!current) return { user: null };
    return { user: viewOf(current.user), expiresAt: new Date(current.session.expiresAt).toISOString() };
  });
}

async function refuseWhileBlocked(reply: FastifyReply, waitMs: number): Promise<void> {
  if (waitMs <= 0) return;
  const seconds = Math.ceil(waitMs / 1000);
  // data.retryAfterSeconds stays in the body for clients that read it; the header comes from retryAfterS.
  throw createError({
    ...COOKBOOK_SERVER_ERRORS.COOKBOOK_SIGN_IN_BLOCKED(Math.ceil(seconds / 60)),
    retryAfterS: seconds,
    data: { retryAfterSeconds: seconds },
  });
}
