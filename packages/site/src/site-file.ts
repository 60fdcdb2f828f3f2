/** The site a build or a dev server is for: SITE (a `defineSite` file), or the project's apps/cookbook/src/site.ts. */
import { join, resolve } from 'node:path';
import { projectRoot } from '@tern/shared/config/paths';

export function siteFileOf(env: NodeJS.ProcessEnv): string {
  return resolve(projectRoot, env.SITE || join('site', 'site.ts'));
}
