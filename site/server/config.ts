/**
 * The cookbook's server settings, read once when the renderer starts its server part: where the
 * content is, and the accounts' (sessions, users, sign-in limits). A bad value stops the renderer
 * with one line naming the variable, as the platform's own settings do.
 */
import { join } from 'node:path';
import { parseConfig, redisFields, z } from '#lib/config.js';
import { buildDir } from '#lib/paths.js';
import { accountsConfigShape } from './auth/config.js';

export const cookbookConfigShape = {
  ...redisFields(),
  ...accountsConfigShape,
  /** The content the build wrote (npm run build:content). */
  CONTENT_FILE: z
    .string()
    .min(1)
    .default(join(buildDir, 'content', 'content.json')),
};

export type CookbookConfig = ReturnType<typeof parseCookbookConfig>;

export function parseCookbookConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseConfig(cookbookConfigShape, env);
}
