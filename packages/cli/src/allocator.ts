/**
 * Allocator settings for the image service (issue 13, item 4). sharp/libvips allocate and free
 * large pixel buffers from many threads; with glibc's defaults the freed memory mostly stays in
 * the process after a burst. Measured by bench/image-memory.ts.
 */
import { existsSync } from 'node:fs';

/** Where Debian's libjemalloc2 puts the library (the Dockerfile links it for every arch). */
export const JEMALLOC_PATH =
  process.arch === 'arm64' ? '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2' : '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';

/**
 * jemalloc returns freed pages to the kernel on its own, also while the process is idle (its
 * background thread), after a second instead of keeping them for the next burst.
 */
export const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0';

/**
 * glibc with a fixed mmap threshold: allocations over 128 KB (pixel buffers) are mmapped and go
 * back to the kernel when freed. Without it glibc raises the threshold after the first large free
 * and later buffers land in arenas that fragment and rarely shrink.
 */
export const MALLOC_MMAP_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' } as const;

/** The environment that preloads jemalloc, or undefined when it is not installed here. */
export function jemallocEnv(path: string = JEMALLOC_PATH): NodeJS.ProcessEnv | undefined {
  if (!existsSync(path)) return undefined;
  return { LD_PRELOAD: path, MALLOC_CONF: JEMALLOC_CONF };
}

/**
 * What `npm start` adds to the image service's environment: jemalloc when libjemalloc2 is
 * installed (IMAGE_JEMALLOC=false declines it), otherwise glibc's fixed mmap threshold. Anything
 * the operator set already wins, and an LD_PRELOAD of their own is left alone.
 */
export function imageAllocatorEnv(env: NodeJS.ProcessEnv, jemallocPath: string = JEMALLOC_PATH): NodeJS.ProcessEnv {
  if (env.LD_PRELOAD) return {};
  const chosen = (env.IMAGE_JEMALLOC === 'false' ? undefined : jemallocEnv(jemallocPath)) ?? MALLOC_MMAP_ENV;
  return Object.fromEntries(Object.entries(chosen).filter(([key]) => env[key] === undefined));
}
