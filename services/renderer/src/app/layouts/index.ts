/** The layouts a page may name with `export const layout = '<name>'`. */
import type { ComponentType, ReactNode } from 'react';
import { createError } from '../../../../../lib/errors.js';
import { RENDERER_ERRORS } from '../../error-codes.js';
import { DefaultLayout } from './default.js';

export type LayoutComponent = ComponentType<{ children: ReactNode }>;

export const layouts: Record<string, LayoutComponent> = {
  default: DefaultLayout,
};

/** The layout a page asked for; an unknown name is a build mistake, reported as a 500. */
export function layoutNamed(name: string | false): LayoutComponent | null {
  if (name === false) return null;
  const layout = layouts[name];
  if (!layout) throw createError(RENDERER_ERRORS.RENDERER_UNKNOWN_LAYOUT(name));
  return layout;
}
