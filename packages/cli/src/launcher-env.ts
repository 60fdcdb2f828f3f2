/** The environment `npm start` gives its services. */

/**
 * The operator's environment, with production the default: `npm start` is the README's way to
 * serve the site, and React's development build (what an unset NODE_ENV loads) serves the dynamic
 * path at about half the speed. `npm run dev` (packages/cli/src/dev.ts) sets development itself.
 */
export function launcherEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    NODE_ENV: env.NODE_ENV || 'production',
    // glibc's per-thread malloc arenas keep freed memory (sharp/libvips threads above all); two bound it.
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2',
  };
}
