/**
 * The site's accounts in one place: sessions, users and saved recipes, in Redis when REDIS_URL is
 * set and embedded otherwise (sessions in memory, users in a JSON file with a demo account;
 * DEMO_ACCOUNT=false removes it from either store).
 * `createAccounts` at start; `registerAccounts` adds the /api/auth and /api/saved routes.
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createOutageGuard } from '@tern/shared/redis/outage';
import { openRedis, redisHealth } from '@tern/shared/redis/connection';
import type { ContentRepository } from '../content/types.js';
import type { Viewer } from '../app/viewer-services.js';
import type { Accounts } from './accounts-type.js';
import { authRoutes } from './auth/auth-routes.js';
import { legacyUsersFile, usersFileOf, type AccountsConfig } from './auth/config.js';
import { signedInFrom } from './auth/current-user.js';
import { ensureDemoAccount, retireDemoAccount, retireDemoAccountWhenReady } from './auth/demo-account.js';
import { acceptFormBodies, typedEmailFrom } from './auth/plain-forms.js';
import {
  LOGIN_ADDRESS_FAILURES_MAX_DEFAULT,
  LOGIN_ADDRESS_WINDOW_S_DEFAULT,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_FAILURES_MAX,
  LOGIN_FAMILIAR_MS,
} from './auth/limits.js';
import { createLoginGuard } from './auth/login-guard.js';
import { createMemoryLoginLimiter, createRedisLoginLimiter, type LimiterSettings } from './auth/login-limiter.js';
import { checkOrigin } from './auth/origin-check.js';
import { savedRoutes } from './saved/saved-routes.js';
import { createSessionStore } from './sessions/index.js';
import { createUserStore } from './users/index.js';
import type { ScryptCost } from './users/password.js';
import { insideBuildOutput, legacyMoveMessage, moveLegacyUsersFile } from './users/move-legacy-file.js';

export type { Accounts };

export interface AccountsOptions {
  config: AccountsConfig;
  repository: ContentRepository;
  logger: FastifyBaseLogger;
  /** The scrypt cost of new hashes; unset, password.ts's DEFAULT_COST (tests pass a cheap one). */
  passwordCost?: ScryptCost;
  /** The clock of sessions and login counts; unset, Date.now. */
  now?: () => number;
}

export async function createAccounts({ config, repository, logger, passwordCost, now }: AccountsOptions): Promise<Accounts> {
  // Never a crash: why Redis cannot be used is logged by the connection and shown in /readyz.
  const redis = config.REDIS_URL ? openRedis(config.REDIS_URL, { log: logger }) : undefined;
  const prefix = config.REDIS_PREFIX;
  // A Redis outage answers 503 + Retry-After at once instead of a late 500 (packages/shared/src/redis/outage.ts).
  const guard = redis ? createOutageGuard() : undefined;
  const guarded = <T extends object>(store: T): T => (guard ? guard.wrap(store) : store);
  const sessions = guarded(createSessionStore({ redis, prefix, now }));
  const usersFile = usersFileOf(config);
  // Only the old default moves: a USERS_FILE set by hand was never in dist/ by our doing.
  if (!redis && config.USERS_FILE === undefined) await moveLegacyUsersFileOnce(usersFile, logger);
  if (!redis && insideBuildOutput(usersFile))
    logger.warn({ usersFile }, `the users file ${usersFile} is inside the build output: a clean rebuild deletes every account`);
  const users = guarded(createUserStore({ redis, prefix, file: usersFile, cost: passwordCost }));
  const count = (counted: LimiterSettings, scope: string) => {
    const settings = { ...counted, now };
    return redis
      ? guarded(createRedisLoginLimiter({ ...settings, redis, prefix: `${prefix}${scope}` }))
      : createMemoryLoginLimiter(settings);
  };
  const loginGuard = createLoginGuard({
    account: count({ max: LOGIN_FAILURES_MAX, windowMs: LOGIN_FAILURE_WINDOW_MS }, ''),
    address: count(
      {
        max: config.LOGIN_ADDRESS_FAILURES_MAX ?? LOGIN_ADDRESS_FAILURES_MAX_DEFAULT,
        windowMs: (config.LOGIN_ADDRESS_WINDOW_S ?? LOGIN_ADDRESS_WINDOW_S_DEFAULT) * 1000,
      },
      'by-address:',
    ),
    familiar: count({ max: 1, windowMs: LOGIN_FAMILIAR_MS }, 'familiar:'),
  });
  // Only the embedded mode creates it; either store may hold one from an earlier start or an import.
  if (!redis && config.DEMO_ACCOUNT) await ensureDemoAccount(users, logger);
  else if (!config.DEMO_ACCOUNT && redis) retireDemoAccountWhenReady(redis, users, logger);
  else if (!config.DEMO_ACCOUNT) await retireDemoAccount(users, logger);
  logger.info({ sessions: sessions.kind, users: users.kind, usersFile: redis ? undefined : usersFile }, 'accounts ready');
  const health = redis ? redisHealth(redis) : undefined;

  return {
    sessions,
    users,
    loginGuard,
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
    // Sessions and users share one connection: one PING answers for both, with Redis's reason.
    ping: async () => (health ? health.ping() : (await sessions.ping()) && (await users.ping())),
    unavailableReason: () => health?.unavailableReason() ?? null,
    async close() {
      await Promise.all([sessions.close(), users.close()]);
      redis?.disconnect();
    },
  };
}

/** Accounts kept in dist/users/users.json before DATA_DIR move out of the build output, with one line. */
async function moveLegacyUsersFileOnce(usersFile: string, logger: FastifyBaseLogger): Promise<void> {
  const move = await moveLegacyUsersFile(legacyUsersFile, usersFile);
  const message = legacyMoveMessage(move);
  if (message) logger[move.moved ? 'info' : 'warn']({ from: move.from, to: move.to }, message);
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
