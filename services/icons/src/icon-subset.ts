/** The body of `/api/_nuxt_icon/{collection}.json`: the requested icons and nothing else of the set. */
import type { IconifyAliases, IconifyIcons, IconifyJSON } from '@iconify/types';
import { getIcons } from '@iconify/utils';
import type { RequestedIcons } from './names.js';

export interface IconSubset {
  prefix: string;
  lastModified?: number;
  icons: IconifyIcons;
  aliases?: IconifyAliases;
  width?: number;
  height?: number;
  left?: number;
  top?: number;
  not_found?: string[];
}

/**
 * getIcons with `not_found`, so a known set always gives an object (never null) and the
 * client marks missing names instead of retrying them; invalid names join `not_found`.
 */
export function iconSubset(set: IconifyJSON, requested: RequestedIcons): IconSubset {
  const picked = getIcons(set, requested.valid, true) ?? { prefix: set.prefix, icons: {} };
  const body: IconSubset = {
    prefix: set.prefix,
    ...(set.lastModified !== undefined && { lastModified: set.lastModified }),
    icons: picked.icons,
  };
  if (picked.aliases && Object.keys(picked.aliases).length > 0) body.aliases = picked.aliases;
  for (const key of ['width', 'height', 'left', 'top'] as const) {
    if (typeof set[key] === 'number') body[key] = set[key];
  }
  const notFound = [...(picked.not_found ?? []), ...requested.invalid].sort();
  if (notFound.length > 0) body.not_found = notFound;
  return body;
}
