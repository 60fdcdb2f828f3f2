/**
 * libvips memory bounds, set once at start. Its operation cache (50 MB by default) and a thread
 * pool per transform (cores each, on top of IMAGE_CONCURRENCY transforms) are what kept RSS high
 * after bursts; results are cached by us already, so libvips' own cache buys little.
 */
import sharp from 'sharp';

export interface LibvipsLimits {
  cacheMb: number;
  threads: number;
}

export function applyLibvipsLimits(limits: LibvipsLimits): void {
  sharp.cache(limits.cacheMb === 0 ? false : { memory: limits.cacheMb, files: 0, items: 100 });
  sharp.concurrency(limits.threads);
}
