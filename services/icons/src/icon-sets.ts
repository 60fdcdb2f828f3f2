/** The icon sets the routes can ask for: the catalogue says which exist, the cache holds them. */
import type { IconifyJSON } from '@iconify/types';
import { createError } from '@tern/shared/errors/errors';
import { ICONS_ERRORS } from './error-codes.js';
import type { Catalogue } from './catalogue.js';
import type { IconSetCache } from './icon-set-cache.js';
import { ICON_NAME_PATTERN } from './names.js';

export interface IconSets {
  catalogue: Catalogue;
  cache: IconSetCache;
}

/** The collection named in a path, checked: 400 when malformed, 404 when @iconify/json lacks it. */
export function checkCollection(sets: IconSets, collection: string): string {
  if (!ICON_NAME_PATTERN.test(collection)) {
    throw createError(ICONS_ERRORS.ICONS_INVALID_COLLECTION());
  }
  if (!sets.catalogue.has(collection)) {
    throw createError(ICONS_ERRORS.ICONS_UNKNOWN_COLLECTION(collection));
  }
  return collection;
}

/**
 * A checked collection's data for `names` (at least those icons and their alias targets); a load
 * failure is a 500 (logged, never cached by clients).
 */
export async function loadIcons(sets: IconSets, prefix: string, names: readonly string[]): Promise<IconifyJSON> {
  try {
    const source = await sets.cache.get(prefix);
    return await source.pick(names);
  } catch (error) {
    throw createError({ ...ICONS_ERRORS.ICONS_COLLECTION_LOAD_FAILED(prefix), cause: error });
  }
}
