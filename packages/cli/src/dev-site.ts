/**
 * The site a dev run is for, and the folders it keeps its state in. Each site gets its own under
 * `{BUILD_DIR}/dev/{site id}` (its build store, render cache, prerendered pages, and the site.json
 * its dev renderer writes from its definition), so a dev start never reads another site's build:
 * not the cookbook's production build with its cached home page, not its defaults (icon sets to
 * preload, Redis prefix). A variable the environment sets wins.
 */
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { buildDir } from '@tern/shared/config/paths';
import { siteFileOf } from '@tern/site/site-file';

export interface DevSite {
  /** The site's `defineSite` file, absolute. */
  file: string;
  /** Its folder's name and a hash of its path: the same site always gets the same folder. */
  id: string;
  dir: string;
  /** What every service of the run gets on top of the environment. */
  env: Record<string, string>;
}

export function devSiteOf(env: NodeJS.ProcessEnv, root = buildDir): DevSite {
  // SITE, else the project's package.json `tern.site`: the same file the build and the dev renderer read.
  const file = siteFileOf(env);
  const hash = createHash('sha256').update(file).digest('hex').slice(0, 10);
  const id = `${basename(dirname(file)).replace(/[^\w.-]/g, '_')}-${hash}`;
  const dir = join(root, 'dev', id);
  const own = (name: string, path: string) => ({ [name]: env[name] || path });
  return {
    file,
    id,
    dir,
    env: {
      SITE: file,
      ...own('SITE_JSON_FILE', join(dir, 'site.json')),
      ...own('BUILD_STORE_DIR', join(dir, 'build-store')),
      ...own('CACHE_DIR', join(dir, 'render-cache')),
      ...own('PRERENDER_DIR', join(dir, 'prerender')),
      // The module the dev renderer rewrites to have node --watch restart it (a new server route).
      DEV_RESTART_FILE: join(dir, 'restart.mjs'),
    },
  };
}
