/**
 * Vite plugin: the server bundle imports the platform's `lib/` as the Node server runs it (the
 * modules tsc compiled into dist/node/lib/) instead of carrying copies. One copy per process: a
 * module's state is then one too, as the Redis connection's one line of reasons per Redis
 * (packages/shared/src/redis/connection.ts), which a second copy would double. The browser bundle still bundles
 * what it uses of lib/. `npm run build` compiles lib/ before the renderer's build.
 */
import { relative, sep } from 'node:path';
import type { Plugin } from 'vite';

/** How an import of lib/ reads until the output options turn it into a path. */
const MARK = 'platform-lib:';

/** `libDir`: the sources (lib/); `compiledLibDir`: tsc's output of them (dist/node/lib/). */
export function sharedLibPlugin(libDir: string, compiledLibDir: string): Plugin {
  return {
    name: 'platform:shared-lib',
    apply: 'build',
    // Before Vite's own resolver, which would otherwise take every relative import.
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    async resolveId(source, importer, options) {
      if (!importer || !source.includes('lib/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const path = resolved && !resolved.external ? relative(libDir, resolved.id) : null;
      if (path === null || path.startsWith('..') || !/\.tsx?$/.test(path)) return null;
      return {
        id: `${MARK}${path
          .split(sep)
          .join('/')
          .replace(/\.tsx?$/, '.js')}`,
        external: true,
      };
    },
    // Every chunk in the output folder itself, so one relative path from there fits them all, and
    // the build folder may move as a whole (a container copies it elsewhere).
    outputOptions(output) {
      const dir = output.dir;
      if (!dir) return null;
      const toLib = relative(dir, compiledLibDir).split(sep).join('/');
      return {
        ...output,
        chunkFileNames: '[name]-[hash].js',
        paths: (id: string) => (id.startsWith(MARK) ? `${toLib.startsWith('.') ? toLib : `./${toLib}`}/${id.slice(MARK.length)}` : id),
      };
    },
  };
}
