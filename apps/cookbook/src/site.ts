/**
 * The cookbook, as a site on the platform: the one entry the platform reads (build, gateway,
 * launcher). Its app (pages, layouts, route middleware) is app/app.ts; its server part (the
 * content, accounts, the categories API) is server/server.ts.
 */
import { defineSite } from '@tern/site/define-site';
import { SITE_NAME } from './app/site-name.js';
import { routeRules } from './route-rules.js';
import { SESSION_COOKIE } from './server/auth/limits.js';

export default defineSite({
  name: SITE_NAME,
  description: 'A small developer cookbook: recipes with code you can copy.',
  app: './app/app.ts',
  server: './server/server.ts',
  stylesheet: './app/styles/site.css',
  sessionCookie: SESSION_COOKIE,
  routeRules,
  defaults: {
    // The keys every earlier release wrote: accounts and builds stay where they were.
    REDIS_PREFIX: 'cookbook:',
    // The sets the pages and the content use: loaded at start, so no visitor waits for them.
    ICONS_PRELOAD: 'lucide,logos',
  },
  // The content the build step writes (npm run build:content): a new build id when it changes, and
  // its icons (categories) drawn by the server, never in the browser's bundle.
  // (The build output is the project's dist/, at the workspace root.)
  dataFiles: ['../../../dist/content/content.json', '../../../dist/content/search-index.json'],
});
