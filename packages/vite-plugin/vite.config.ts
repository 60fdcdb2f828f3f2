/**
 * One `vite build` makes both halves of the renderer for one site: the browser bundle (dist/client,
 * hashed files under the assets prefix, with a manifest the server reads to link each page's
 * chunks) and the SSR bundle (dist/ssr/entry-server.js, imported by the Node server at start, with
 * the site's server part inside and site.json beside it).
 *
 *   SITE     the site's `defineSite` file (default: the project package.json's `tern.site`, else site/site.ts)
 *   BUILD_DIR where the build goes (default dist/; see packages/shared/src/config/paths.ts)
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { normalizeAssetsPrefix } from '@tern/shared/url-space/assets-prefix';
import { buildDir as dist } from '@tern/shared/config/paths';
import { siteFileOf } from '@tern/site/site-file';
import { iconBundlePlugin } from './src/icon-bundle-plugin.js';
import { sharedLibPlugin } from './src/shared-lib-plugin.js';
import { clientConditions, serverConditions } from './src/source-conditions.js';
import { serverExportsPlugin } from './src/server-exports-plugin.js';
import { loadSite, sitePlugin } from './src/site-plugin.js';

const require = createRequire(import.meta.url);
/** Vite's root: the React runtime's package, which holds the entries (and names the manifest's keys). */
const root = dirname(require.resolve('@tern/runtime/package.json'));
/** The UI kit's sources, read for the icon names they draw. */
const uiSources = join(dirname(require.resolve('@tern/ui/package.json')), 'src');

/**
 * React Router's package exports only its development build (warnings, invariants, dev-only
 * checks); its own Vite plugin swaps in `dist/production` for a build. We do the same, for the
 * browser (0.5 KB br less on every page) and for the SSR bundle, which then carries it inside (a
 * warmed render of a content page: 5.0 ms of CPU against 5.9). `npm run dev` keeps the development build.
 */
// Found as Node finds the package (its package.json is exported), wherever npm put it.
const reactRouterProduction = join(dirname(require.resolve('react-router/package.json')), 'dist', 'production');
/** Modules of the first load that pages and lazy parts share: grouped so they travel as one file. */
const UI_CORE =
  /vite[\\/]preload-helper|[\\/]ui[\\/]src[\\/](icon|lazy-part)\.tsx?$|[\\/]runtime[\\/]src[\\/]shared[\\/](icons|hydration)\.ts$|icon-bundle$/;

/**
 * Vendor code in chunks of its own, named for the package and hashed by content only: a new build
 * of the app leaves React's and the router's files (and browser caches) alone.
 */
const CHUNK_GROUPS = [
  // Rolldown's runtime (the CommonJS interop React needs) is not among them: since Rolldown 1.1 it
  // places that module itself and never shows it to a group's test. It is a file of its own, named
  // in React's: when the helpers the build uses change, React's file changes with it
  // (docs/decisions/javascript-budget.md).
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
  { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/, priority: 1 },
  // The small modules nearly every page's first load shares (icons, lazy parts, Vite's
  // preload helper): one file, not five, each with its own imports and compression window.
  { name: 'ui-core', test: UI_CORE, priority: 0 },
];

const productionAliases = [
  { find: /^react-router$/, replacement: join(reactRouterProduction, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(reactRouterProduction, 'dom-export.mjs') },
];

export default defineConfig(async ({ command }): Promise<UserConfig> => {
  const site = await loadSite(siteFileOf(process.env));
  const siteDir = dirname(site.file);
  return {
    root,
    base: normalizeAssetsPrefix(process.env.ASSETS_PREFIX),
    publicDir: false,
    resolve: { alias: command === 'build' ? productionAliases : [], conditions: clientConditions },
    // Bundled, so the SSR entry imports the production build above rather than the package's export.
    ssr: command === 'build' ? { noExternal: ['react-router'] } : {},
    plugins: [
      react(),
      tailwindcss(),
      sitePlugin(site, root),
      serverExportsPlugin(join(dirname(site.appFile), 'pages')),
      sharedLibPlugin(),
      iconBundlePlugin({
        sourceDirs: [join(root, 'src', 'app'), uiSources, siteDir],
        dataFiles: site.dataFiles,
      }),
    ],
    build: {
      // Kept in dist/client for error reporting, never served (the static handler answers 404), so
      // no file names its map: the `//# sourceMappingURL` line cost 0.3 KB br of every page's first load.
      sourcemap: 'hidden',
      emptyOutDir: true,
      // No preload lists beside lazy imports: every page's first load carried them and Vite's
      // helper (0.4 KB br a page, with the first-load budget at its edge), while the parts they
      // served are fetched ahead of need anyway (a page's chunk by link preloading, a menu's or a
      // tooltip's on pointer-enter and focus); a lazy chunk's own imports follow it one trip later.
      modulePreload: false,
      // No [PLUGIN_TIMINGS] report: packages/cli/src/build.mjs times the whole step, and the report's figures
      // (Tailwind's and React's transforms) are the build's normal cost, not something to act on.
      rolldownOptions: { checks: { bundlerTimings: false } },
    },
    environments: {
      client: {
        build: {
          outDir: join(dist, 'client'),
          manifest: true,
          assetsDir: '',
          rolldownOptions: {
            input: join(root, 'src', 'entry-client.tsx'),
            output: { codeSplitting: { groups: CHUNK_GROUPS } },
          },
        },
      },
      ssr: {
        resolve: { conditions: serverConditions },
        build: {
          outDir: join(dist, 'ssr'),
          ssr: join(root, 'src', 'entry-server.tsx'),
          rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
        },
      },
    },
    // Build the client first: its manifest is what the server links from.
    builder: {
      async buildApp(builder) {
        await builder.build(builder.environments.client!);
        await builder.build(builder.environments.ssr!);
      },
    },
  };
});
