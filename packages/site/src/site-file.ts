/**
 * The site a build or a dev server is for: SITE (a `defineSite` file), or the one the project's
 * package.json names (`"tern": { "site": … }`), or the project's site/site.ts.
 */
import { join, resolve } from 'node:path';
import { projectRoot, projectSettings } from '@tern/shared/config/paths';

export function siteFileOf(env: NodeJS.ProcessEnv): string {
  return resolve(projectRoot, env.SITE || projectSettings.site || join('site', 'site.ts'));
}
