/**
 * The cookbook's server settings, read once when the renderer starts its server part: where the
 * content is, and the accounts' (sessions, users, sign-in limits). A bad value stops the renderer
 * with one line naming the variable, as the platform's own settings do.
 */
import { join } from 'node:path';
import { httpUrl, parseConfig, redisFields, z } from '@tern/shared/config/service-config';
import { buildDir } from '@tern/shared/config/paths';
import { accountsConfigShape } from './auth/config.js';

export const cookbookConfigShape = {
  ...redisFields(),
  ...accountsConfigShape,
  /** The content the build wrote (npm run build:content). */
  CONTENT_FILE: z
    .string()
    .min(1)
    .default(join(buildDir, 'content', 'content.json')),
  /** The search index the content build wrote beside it. */
  SEARCH_INDEX_FILE: z
    .string()
    .min(1)
    .default(join(buildDir, 'content', 'search-index.json')),
  /** The site's public address, for the sitemap's and the feed's absolute URLs; unset, the request's. */
  PUBLIC_ORIGIN: httpUrl().optional(),
};

export type CookbookConfig = ReturnType<typeof parseCookbookConfig>;

export function parseCookbookConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseConfig(cookbookConfigShape, env);
}
