/** One icon as a standalone SVG document, for `<img src>` and CSS masks. */
import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToHTML, iconToSVG } from '@iconify/utils';
import { createError } from '@tern/shared/errors/errors';
import { ICONS_ERRORS } from './error-codes.js';

/** A number with an optional CSS unit, or a keyword iconToSVG understands. */
const SIZE = /^(\d{1,4}(\.\d{1,3})?(px|em|rem|%)?|auto|unset|none)$/;

export interface SvgSize {
  width?: string;
  height?: string;
}

/** `?width=&height=`: each optional, each checked, since they are written into the markup. */
export function parseSvgSize(query: Record<string, unknown>): SvgSize {
  const size: SvgSize = {};
  for (const key of ['width', 'height'] as const) {
    const value = query[key];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string' || !SIZE.test(value)) {
      throw createError(ICONS_ERRORS.ICONS_INVALID_SIZE(key));
    }
    size[key] = value;
  }
  return size;
}

/**
 * The SVG markup, or null when the set has no such icon. IDs are left as they are: a standalone
 * document has no neighbours to clash with, and a stable body keeps the strong ETag honest.
 */
export function renderIconSvg(set: IconifyJSON, name: string, size: SvgSize): string | null {
  const icon = getIconData(set, name);
  if (!icon) return null;
  const built = iconToSVG(icon, size);
  return iconToHTML(built.body, built.attributes);
}
