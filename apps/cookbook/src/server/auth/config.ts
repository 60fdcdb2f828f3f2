/** The accounts' settings, part of the cookbook's server config (server/config.ts). */
import { join } from 'node:path';
import { flag, positiveInt, z } from '@tern/shared/config/service-config';
import { buildDir, defaultDataDir } from '@tern/shared/config/paths';
import { LOGIN_ADDRESS_FAILURES_MAX_DEFAULT, LOGIN_ADDRESS_WINDOW_S_DEFAULT, SESSION_TTL_SECONDS_DEFAULT } from './limits.js';

/** Where the users file lived before DATA_DIR: inside the build output, which a clean rebuild deletes. */
export const legacyUsersFile = join(buildDir, 'users', 'users.json');

export const accountsConfigShape = {
  SESSION_TTL_SECONDS: positiveInt(SESSION_TTL_SECONDS_DEFAULT),
  /** Durable embedded data (the users file), kept out of dist/ so `rm -rf dist` cannot take it. */
  DATA_DIR: z.string().min(1, 'expected a folder path').default(defaultDataDir),
  /** The embedded user store (no REDIS_URL): one JSON file shared with `npm run users`; unset: {DATA_DIR}/users.json. */
  USERS_FILE: z.string().min(1, 'expected a file path').optional(),
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
  DATA_DIR?: string | undefined;
  USERS_FILE?: string | undefined;
  DEMO_ACCOUNT: boolean;
  LOGIN_ADDRESS_FAILURES_MAX?: number;
  LOGIN_ADDRESS_WINDOW_S?: number;
}

/** The users file: USERS_FILE when set, otherwise users.json in DATA_DIR. */
export function usersFileOf(config: Pick<AccountsConfig, 'DATA_DIR' | 'USERS_FILE'>): string {
  return config.USERS_FILE ?? join(config.DATA_DIR ?? defaultDataDir, 'users.json');
}
