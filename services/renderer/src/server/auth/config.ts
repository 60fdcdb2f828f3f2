/** The accounts' part of the renderer config (spread into rendererConfigShape, read once there). */
import { join } from 'node:path';
import { flag, positiveInt, z } from '../../../../../lib/config.js';
import { buildDir } from '../../../../../lib/paths.js';
import { LOGIN_ADDRESS_FAILURES_MAX_DEFAULT, LOGIN_ADDRESS_WINDOW_S_DEFAULT, SESSION_TTL_SECONDS_DEFAULT } from './limits.js';

export const defaultUsersFile = join(buildDir, 'users', 'users.json');

export const accountsConfigShape = {
  SESSION_TTL_SECONDS: positiveInt(SESSION_TTL_SECONDS_DEFAULT),
  /** The embedded user store (no REDIS_URL): one JSON file shared with `npm run users`. */
  USERS_FILE: z.string().min(1, 'expected a file path').default(defaultUsersFile),
  /** In embedded mode, create the demo account at start (see README). */
  DEMO_ACCOUNT: flag(true),
  /** Failed sign-ins one client address may make, with any emails, per window (password spraying). */
  LOGIN_ADDRESS_FAILURES_MAX: positiveInt(LOGIN_ADDRESS_FAILURES_MAX_DEFAULT),
  LOGIN_ADDRESS_WINDOW_S: positiveInt(LOGIN_ADDRESS_WINDOW_S_DEFAULT),
};

export interface AccountsConfig {
  REDIS_URL?: string | undefined;
  REDIS_PREFIX: string;
  SESSION_TTL_SECONDS: number;
  USERS_FILE: string;
  DEMO_ACCOUNT: boolean;
  LOGIN_ADDRESS_FAILURES_MAX?: number;
  LOGIN_ADDRESS_WINDOW_S?: number;
}
