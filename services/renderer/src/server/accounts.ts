/**
 * The site's accounts in one place: sessions, users and saved recipes, in Redis when REDIS_URL is
 * set and embedded otherwise (sessions in memory, users in a JSON file with a demo account).
 * `createAccounts` at start; `registerAccounts` adds the /api/auth and /api/saved routes.
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createOutageGuard, resilientRedisOptions } from '../../../../lib/redis.js';
import type { ContentRepository } from '../content/types.js';
import type { AccountsView, Viewer } from '../runtime/shared/services.js';
import { authRoutes } from './auth/auth-routes.js';
import type { AccountsConfig } from './auth/config.js';
import { signedInFrom } from './auth/current-user.js';
import { ensureDemoAccount } from './auth/demo-account.js';
import { acceptFormBodies, typedEmailFrom } from './auth/plain-forms.js';
import {
  LOGIN_ADDRESS_FAILURES_MAX_DEFAULT,
  LOGIN_ADDRESS_WINDOW_S_DEFAULT,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_FAILURES_MAX,
} from './auth/limits.js';
import { createMemoryLoginLimiter, createRedisLoginLimiter, type LoginLimiter } from './auth/login-limiter.js';
import { checkOrigin } from './auth/origin-check.js';
import { savedRoutes } from './saved/saved-routes.js';
import { createSessionStore, type SessionStore } from './sessions/index.js';
import { createUserStore, type UserStore } from './users/index.js';

export interface Accounts extends AccountsView {
  sessions: SessionStore;
  users: UserStore;
  limiter: LoginLimiter;
  /** Failures per client address across all emails (password spraying). */
  addressLimiter: LoginLimiter;
  repository: ContentRepository;
  sessionTtlSeconds: number;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface AccountsOptions {
  config: AccountsConfig;
  repository: ContentRepository;
  logger: FastifyBaseLogger;
}

export async function createAccounts({ config, repository, logger }: AccountsOptions): Promise<Accounts> {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, resilientRedisOptions) : undefined;
  redis?.on('error', () => undefined); // reported through readiness, not as crashes
  const prefix = config.REDIS_PREFIX;
  // A Redis outage answers 503 + Retry-After at once instead of a late 500 (lib/redis.ts).
  const guard = redis ? createOutageGuard() : undefined;
  const guarded = <T extends object>(store: T): T => (guard ? guard.wrap(store) : store);
  const sessions = guarded(createSessionStore({ redis, prefix }));
  const users = guarded(createUserStore({ redis, prefix, file: config.USERS_FILE }));
  const limits = { max: LOGIN_FAILURES_MAX, windowMs: LOGIN_FAILURE_WINDOW_MS };
  const limiter = redis ? guarded(createRedisLoginLimiter({ ...limits, redis, prefix })) : createMemoryLoginLimiter(limits);
  const addressLimits = {
    max: config.LOGIN_ADDRESS_FAILURES_MAX ?? LOGIN_ADDRESS_FAILURES_MAX_DEFAULT,
    windowMs: (config.LOGIN_ADDRESS_WINDOW_S ?? LOGIN_ADDRESS_WINDOW_S_DEFAULT) * 1000,
  };
  const addressLimiter = redis
    ? guarded(createRedisLoginLimiter({ ...addressLimits, redis, prefix: `${prefix}by-address:` }))
    : createMemoryLoginLimiter(addressLimits);
  if (!redis && config.DEMO_ACCOUNT) await ensureDemoAccount(users, logger);
  logger.info({ sessions: sessions.kind, users: users.kind, usersFile: redis ? undefined : config.USERS_FILE }, 'accounts ready');

  return {
    sessions,
    users,
    limiter,
    addressLimiter,
    repository,
    sessionTtlSeconds: config.SESSION_TTL_SECONDS,
    async viewer(request: Request): Promise<Viewer | null> {
      try {
        const current = await signedInFrom(request.headers.get('cookie'), sessions, users);
        if (!current) return null;
        const { id, email, name } = current.user;
        return { user: { id, email, name }, saved: await users.saved(id) };
      } catch (error) {
        // Pages still render for everyone while the store is away; the visitor is shown as signed out.
        logger.warn({ err: error }, 'accounts store unavailable; rendering as anonymous');
        return null;
      }
    },
    typedEmail: (request: Request) => typedEmailFrom(request.headers.get('cookie')),
    async ping() {
      return (await sessions.ping()) && (await users.ping());
    },
    async close() {
      await Promise.all([sessions.close(), users.close()]);
      redis?.disconnect();
    },
  };
}

/**
 * The accounts' routes, in their own scope: the cookie parser, the form-body parser and the Origin
 * check stay there.
 */
export async function registerAccounts(app: FastifyInstance, accounts: Accounts): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyCookie);
    acceptFormBodies(scope);
    scope.addHook('onRequest', async (request) => checkOrigin(request));
    await scope.register(authRoutes, { accounts });
    await scope.register(savedRoutes, { accounts });
  });
  app.addHook('onClose', () => accounts.close());
}
