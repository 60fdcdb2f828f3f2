/** The demo account of the embedded mode, so a fresh `npm start` can sign in at once (see README). */
import type { FastifyBaseLogger } from 'fastify';
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
