/**
 * The build's steps: what each runs, what it reads (its inputs, hashed into its key) and what it
 * writes (checked to be there: a path, or a check). A step runs after the steps named in `after`, whose keys are part
 * of its own, so a change reaches every step that depends on it and no other; `runsAfter` orders
 * without keying (a step runs compiled code, but its key holds the sources it imports). Each step is also an
 * npm script (`npm run build:icons`…) that runs it alone, whatever its inputs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { cliScript, fromSource, projectRoot as root, viteBin, viteConfig } from './project.mjs';
import { compiledPath } from './server-sources.mjs';

/**
 * packages/vite-plugin/src/icon-bundle.ts's NAME_IN_TEXT (a test holds them equal): the Vite build
 * reads the site's data files for nothing but the icon names in them, so those names, not the
 * files, are the bundles' input, and a recipe's text edited rebuilds the content alone.
 */
export const ICON_NAME_IN_TEXT = /["'`]([a-z0-9]+(?:-[a-z0-9]+)*:[a-z0-9]+(?:-[a-z0-9]+)*)["'`]/g;

/** Every candidate icon name in a file (a superset of the names the bundle keeps), sorted. */
export function iconNamesIn(file) {
  if (!existsSync(file)) return 'missing';
  const names = new Set([...readFileSync(file, 'utf8').matchAll(ICON_NAME_IN_TEXT)].map((match) => match[1]));
  return [...names].sort().join(',');
}

/** Everything a step's output can depend on besides its own inputs: the installed packages. */
const PACKAGES = ['package-lock.json', 'package.json'];
/** The code a site's Vite build reads: the React runtime, the UI kit, the site API, the plugins, the shared modules. */
const BROWSER_PACKAGES = ['packages/runtime', 'packages/ui', 'packages/site', 'packages/vite-plugin', 'packages/shared'];

/**
 * The site's folder, project-relative: a site outside the checkout keys its Vite build on it.
 * SITE, else package.json's `tern.site`, else site/site.ts (as @tern/site/site-file says).
 */
function siteFolder() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const file = resolve(root, process.env.SITE || manifest.tern?.site || join('site', 'site.ts'));
  return relative(root, dirname(file)) || '.';
}

/**
 * Where the platform is installed (a site's node_modules), its code was compiled when it was
 * packed and is keyed by the lockfile: no compile step, no source imports to hash, and no content
 * step (the cookbook's own, which only its checkout has).
 */
function installedSteps(steps) {
  const dropped = new Set(['compile', 'content']);
  const site = siteFolder();
  return steps
    .filter((step) => !dropped.has(step.name))
    .map((step) => ({
      ...step,
      inputs: step.name === 'renderer' ? { ...step.inputs, files: [site, ...PACKAGES] } : { ...step.inputs, imports: [] },
      after: step.after.filter((name) => !dropped.has(name)),
      runsAfter: step.runsAfter?.filter((name) => !dropped.has(name)),
    }));
}

/** @param {string} buildDir where the build goes (dist/, or BUILD_DIR) */
export function buildSteps(buildDir) {
  const steps = checkoutSteps(buildDir);
  return fromSource ? steps : installedSteps(steps);
}

function checkoutSteps(buildDir) {
  // A step's script by its source path; it runs compiled, from its package's dist/ (installed: @tern/cli's own).
  const compiled = (source) => (fromSource ? compiledPath(root, source) : cliScript(source.replace(/^packages\/cli\/src\/|\.ts$/g, '')));
  const node = (source) => [process.execPath, [compiled(source)]];
  return [
    {
      name: 'compile',
      label: 'compile server code (esbuild)',
      // Run in the build's own process: see packages/cli/src/build.mjs.
      command: null,
      inputs: { files: ['tsconfig.json', ...PACKAGES], serverSources: true },
      outputs: ['packages/cli/dist/launch.js'],
      after: [],
    },
    {
      name: 'icons',
      label: 'index icon sets',
      command: node('packages/cli/src/build-icon-index.ts'),
      inputs: { files: PACKAGES, imports: ['packages/cli/src/build-icon-index.ts'] },
      outputs: [join(buildDir, 'icons')],
      after: [],
      runsAfter: ['compile'],
    },
    {
      name: 'content',
      label: 'build content',
      command: node('apps/cookbook/src/content/build-content.ts'),
      inputs: { files: ['apps/cookbook/content', 'apps/cookbook/public', ...PACKAGES], imports: ['apps/cookbook/src/content/build-content.ts'] },
      outputs: [join(buildDir, 'content', 'content.json')],
      after: [],
      runsAfter: ['compile'],
    },
    {
      name: 'renderer',
      label: 'build client and SSR bundles (Vite)',
      command: [
        process.execPath,
        [viteBin(), 'build', '--config', viteConfig(), '--logLevel', 'warn'],
      ],
      // The runtime, UI kit, site API and build code, the site, the shared modules, and the icon names the content holds.
      inputs: {
        files: [...BROWSER_PACKAGES, 'apps/cookbook/src', 'tsconfig.json', ...PACKAGES],
        env: ['ASSETS_PREFIX', 'SITE', 'NODE_ENV'],
        derived: () => [iconNamesIn(join(buildDir, 'content', 'content.json'))],
      },
      outputs: [join(buildDir, 'client', '.vite', 'manifest.json'), join(buildDir, 'ssr', 'entry-server.js')],
      after: [],
      runsAfter: ['content'],
    },
    {
      name: 'compress',
      label: 'compress assets',
      command: node('packages/cli/src/compress-assets.ts'),
      inputs: { imports: ['packages/cli/src/compress-assets.ts'] },
      // The twins themselves: a Vite build run alone (npm run build:renderer) empties dist/client.
      outputs: [() => existsSync(join(buildDir, 'client')) && readdirSync(join(buildDir, 'client')).some((name) => name.endsWith('.br'))],
      after: ['renderer'],
    },
    {
      name: 'meta',
      label: 'write build meta',
      command: node('packages/cli/src/write-build-meta.ts'),
      inputs: { imports: ['packages/cli/src/write-build-meta.ts'] },
      outputs: [join(buildDir, 'build', 'meta.json')],
      after: ['renderer', 'content'],
    },
    {
      name: 'prerender',
      label: 'prerender pages',
      command: node('packages/cli/src/prerender.ts'),
      // The pages are rendered by the built renderer: all of its server code counts (compile).
      inputs: { imports: ['packages/cli/src/prerender.ts'], env: ['PUBLIC_ORIGIN', 'ASSETS_PREFIX'] },
      outputs: [join(buildDir, 'prerender')],
      after: ['meta', 'compile'],
    },
  ];
}
