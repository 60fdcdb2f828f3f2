/** The layout a page names with `export const layout = '<name>'`, from the site's layouts. */
import { createError } from '@tern/shared/errors/errors';
import { RENDERER_ERRORS } from '../error-codes.js';
import type { LayoutComponent } from '@tern/site/define-site-app';

/** An unknown name is a build mistake, reported as a 500; `false` renders the page alone. */
export function layoutNamed(layouts: Readonly<Record<string, LayoutComponent>>, name: string | false): LayoutComponent | null {
  if (name === false) return null;
  const layout = Object.hasOwn(layouts, name) ? layouts[name] : undefined;
  if (!layout) throw createError(RENDERER_ERRORS.RENDERER_UNKNOWN_LAYOUT(name));
  return layout;
}
