import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, projectSettings } from '@tern/shared/config/paths';
import { devSiteOf } from './dev-site.js';

describe('the state folders of a dev run', () => {
  it('are keyed by the site file: two sites never share one, the same site always gets its own back', () => {
    const cookbook = devSiteOf({}, '/b');
    const blog = devSiteOf({ SITE: '/elsewhere/blog/site.ts' }, '/b');
    // The project's own site, as its package.json names it (apps/cookbook here).
    expect(projectSettings.site).toBe('apps/cookbook/src/site.ts');
    expect(cookbook.file).toBe(join(projectRoot, 'apps', 'cookbook', 'src', 'site.ts'));
    expect(blog.id).toMatch(/^blog-[0-9a-f]{10}$/);
    expect(blog.dir).not.toBe(cookbook.dir);
    expect(devSiteOf({ SITE: '/elsewhere/blog/site.ts' }, '/b')).toEqual(blog);
    expect(devSiteOf({ SITE: '/other/blog/site.ts' }, '/b').id).not.toBe(blog.id);
    for (const name of ['BUILD_STORE_DIR', 'CACHE_DIR', 'PRERENDER_DIR', 'SITE_JSON_FILE', 'DEV_RESTART_FILE']) {
      expect(blog.env[name]?.startsWith(`${blog.dir}/`), name).toBe(true);
    }
    expect(blog.env.SITE).toBe('/elsewhere/blog/site.ts');
  });

  it('give way to what the environment sets', () => {
    const site = devSiteOf({ SITE: '/x/site.ts', BUILD_STORE_DIR: '/store', CACHE_DIR: '/cache' }, '/b');
    expect([site.env.BUILD_STORE_DIR, site.env.CACHE_DIR, site.env.PRERENDER_DIR]).toEqual([
      '/store',
      '/cache',
      join(site.dir, 'prerender'),
    ]);
  });
});
