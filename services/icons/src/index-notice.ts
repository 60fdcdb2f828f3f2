/**
 * Which missing icon indexes are worth a warning at start: those of the sets the site preloads
 * (`ICONS_PRELOAD`, from its `defaults`), the ones it says it uses. A site that names no set (a
 * site with no icons) hears nothing; a set it asks for later still works without an index, read
 * whole on first use.
 */
import { existsSync } from 'node:fs';
import { iconIndexPath } from './icon-index.js';

export function preloadedSetsWithoutIndex(preload: readonly string[], indexDir: string, exists = existsSync): string[] {
  return preload.filter((prefix) => !exists(iconIndexPath(indexDir, prefix)));
}
