/**
 * Vite plugin: the server bundle imports the platform's shared modules (@tern/shared) as the Node
 * server runs them, from the package's compiled dist/ (its exports' `default` condition), instead
 * of carrying copies. One copy per process: a module's state is then one too, as the Redis
 * connection's one line of reasons per Redis (@tern/shared/redis/connection), which a second copy
 * would double. The browser bundle still bundles what it uses of them. `npm run build` compiles
 * the packages before the renderer's build.
 */
import type { Plugin } from 'vite';

const SHARED = '@tern/shared/';

export function sharedLibPlugin(): Plugin {
  return {
    name: 'platform:shared-lib',
    apply: 'build',
    // Before Vite's own resolver, which would otherwise follow the workspace link into the sources.
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    resolveId(source) {
      return source.startsWith(SHARED) ? { id: source, external: true } : null;
    },
    // Every chunk in the output folder itself, as before the packages: the server bundle's files
    // side by side, whatever imports them.
    outputOptions: (output) => ({ ...output, chunkFileNames: '[name]-[hash].js' }),
  };
}
