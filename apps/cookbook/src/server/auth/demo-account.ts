/**
 * The demo account of the embedded mode, so a fresh `npm start` can sign in at once (see README),
 * and its retirement: with DEMO_ACCOUNT=false its published password must stop working, in
 * whichever store the server uses (an earlier start or an import may have left it there).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { UserExistsError, type UserStore } from '../users/index.js';

export const DEMO_EMAIL = 'demo@cookbook.test';
export const DEMO_PASSWORD = 'cookbook-demo';
export const DEMO_NAME = 'Demo Cook';

export async function ensureDemoAccount(users: UserStore, logger: FastifyBaseLogger): Promise<void> {
  if (!(await users.findByEmail(DEMO_EMAIL))) {
    try {
      await users.add({ email: DEMO_EMAIL, name: DEMO_NAME, password: DEMO_PASSWORD });
    } catch (error) {
      if (!(error instanceof UserExistsError)) throw error;
    }
  }
  // In the message, not a field: the logger redacts fields named password.
  logger.info({ email: DEMO_EMAIL }, `demo account: sign in as ${DEMO_EMAIL} with the password ${DEMO_PASSWORD}`);
}

/**
 * Removes the demo account (and its saved list; its sessions then find no user) when it still
 * takes the published password. An account of that email with a password of its own is someone's
 * real account and stays. Answers whether it removed one.
 */
export async function retireDemoAccount(users: UserStore, logger: FastifyBaseLogger): Promise<boolean> {
  // findByEmail first: a start without one pays no password hash.
  const demo = (await users.findByEmail(DEMO_EMAIL)) && (await users.verify(DEMO_EMAIL, DEMO_PASSWORD));
  if (!demo || !(await users.remove(demo.id))) return false;
  logger.info({ email: DEMO_EMAIL, users: users.kind }, `demo account removed (DEMO_ACCOUNT=false): ${DEMO_EMAIL} can no longer sign in`);
  return true;
}

/**
 * retireDemoAccount on a Redis store, which may not be reachable yet at start (the server starts
 * without it): tried when the connection is ready, and again at each reconnect until it has run.
 * No sign-in can succeed before it, since none reaches Redis either.
 */
export function retireDemoAccountWhenReady(redis: Redis, users: UserStore, logger: FastifyBaseLogger): void {
  let done = false;
  const attempt = () => {
    if (done) return;
    retireDemoAccount(users, logger).then(
      () => {
        done = true;
        redis.off('ready', attempt);
      },
      (error: unknown) =>
        logger.warn({ err: error }, 'demo account: could not check the store for it; trying again at the next connection'),
    );
  };
  redis.on('ready', attempt);
  if (redis.status === 'ready') attempt();
}
