/**
 * Parses the modifier segment as ipx does (`_` for none, pairs split on `,` or `&`, key and value
 * on `:`, `=` or `_`), but refuses unknown names and bad values with 400 before any work is done.
 */
import { createError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';
import { canonicalName, checkModifier, type RuleContext } from './modifier-rules.js';

/** Canonical modifier name to the argument string ipx receives. */
export type ImageModifiers = Record<string, string>;

const PAIR_SEPARATOR = /[&,]/;
const VALUE_SEPARATOR = /[:=_]/;
const MAX_MODIFIERS = 24;

function decodePart(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw createError(IMAGE_ERRORS.IMAGE_MALFORMED_ENCODING('modifiers'));
  }
}

export function parseModifiers(segment: string, ctx: RuleContext): ImageModifiers {
  const modifiers: ImageModifiers = {};
  if (segment === '_') return modifiers;
  const pairs = segment.split(PAIR_SEPARATOR);
  if (pairs.length > MAX_MODIFIERS) throw createError(IMAGE_ERRORS.IMAGE_TOO_MANY_MODIFIERS(MAX_MODIFIERS));
  for (const pair of pairs) {
    if (pair === '') throw createError(IMAGE_ERRORS.IMAGE_EMPTY_MODIFIER());
    const [rawKey = '', ...rawArgs] = pair.split(VALUE_SEPARATOR);
    const key = decodePart(rawKey);
    const name = canonicalName(key);
    if (!name) throw createError(IMAGE_ERRORS.IMAGE_UNKNOWN_MODIFIER(key));
    modifiers[name] = checkModifier(name, rawArgs.map(decodePart), ctx);
  }
  return combineWidthAndHeight(modifiers);
}

/** sharp honours only the last resize, so `w` with `h` becomes one `resize` as @nuxt/image sends it. */
function combineWidthAndHeight(modifiers: ImageModifiers): ImageModifiers {
  const { width, height, ...rest } = modifiers;
  if (width === undefined || height === undefined || rest.resize !== undefined) return modifiers;
  return { ...rest, resize: `${width}x${height}` };
}

/** A stable text for the cache key: the same request, however it was spelled, gives the same text. */
export function modifiersKey(modifiers: ImageModifiers): string {
  return Object.keys(modifiers)
    .sort()
    .map((name) => `${name}_${modifiers[name]}`)
    .join('&');
}

/** Width and height a `resize` asks for. */
export function resizeOf(modifiers: ImageModifiers): { width: number; height: number } | undefined {
  if (modifiers.resize === undefined) return undefined;
  const [w, h] = modifiers.resize.split('x').map(Number);
  return { width: w!, height: h! };
}
