/**
 * Reading Iconify icon sets (@iconify/utils): for the build's icon bundle and for icons the
 * browser loads at run time. Its own module so the browser loads it with the first such icon,
 * not with the page (./icons-loader.ts imports it dynamically). Browser-safe.
 */
import { getIconData, iconToSVG, quicklyValidateIconSet } from '@iconify/utils';
import type { IconifyJSON } from '@iconify/types';
import type { IconSvg } from './icons.js';

export { quicklyValidateIconSet };

/** The drawable form of `name` from an icon set (aliases resolved), or null if it is absent. */
export function iconSvgFromSet(set: IconifyJSON, name: string): IconSvg | null {
  const data = getIconData(set, name);
  if (!data) return null;
  const built = iconToSVG(data, { height: 'auto' });
  const [, , width = 16, height = 16] = built.viewBox;
  return { body: built.body, viewBox: built.attributes.viewBox, aspect: height ? width / height : 1 };
}
