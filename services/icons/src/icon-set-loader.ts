/**
 * How a set gets into the cache: the site's preloaded sets whole (their requests are then answered
 * from memory), every other set through its build-time index when there is a current one (a cold
 * request reads kilobytes), and the whole file only when there is not (a build without
 * `npm run build:icons`, or @iconify/json updated since).
 */
import type { Catalogue } from './catalogue.js';
import { readIconIndex } from './icon-index.js';
import type { IconSetLoader } from './icon-set-cache.js';
import { readIconSetFile, type IconReads } from './icon-set-file.js';

export function iconSetLoader(catalogue: Catalogue, indexDir: string, wholeSets: readonly string[], reads: IconReads): IconSetLoader {
  const whole = new Set(wholeSets);
  return async (prefix) => {
    const path = catalogue.filePath(prefix);
    if (!whole.has(prefix)) {
      const indexed = await readIconIndex(indexDir, path, prefix, catalogue.version, reads);
      if (indexed) return indexed;
    }
    return readIconSetFile(path, prefix, reads);
  };
}
