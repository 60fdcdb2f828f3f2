/**
 * Every modifier ipx 3 supports, by name and alias, with the check of its value. A rule returns the
 * argument string handed to ipx (ipx splits it on `_` and reads each part as JSON-ish).
 */
import sharp from 'sharp';
import { bare, colour, int, num, oneOf, badModifier } from './modifier-values.js';
import type { OutputFormats } from './output-format.js';

export interface RuleContext {
  maxDimension: number;
  /** The output formats this service offers (formats.ts, less those switched off). */
  formats: OutputFormats;
}

type Rule = (args: string[], ctx: RuleContext) => string;

const FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
const POSITIONS = [
  'top',
  'right',
  'bottom',
  'left',
  'right top',
  'right bottom',
  'left bottom',
  'left top',
  ...Object.keys(sharp.gravity),
  ...Object.keys(sharp.strategy),
];
const KERNELS = Object.keys(sharp.kernel);

const single = (name: string, args: string[]): string | undefined => {
  if (args.length > 1) throw badModifier(name, 'a single value', args.join('_'));
  return args[0];
};

const dimension =
  (name: string): Rule =>
  (args, ctx) =>
    String(int(name, single(name, args), 1, ctx.maxDimension));

function resize(args: string[], ctx: RuleContext): string {
  const text = single('resize', args) ?? '';
  const [w, h, ...extra] = text.split('x');
  if (extra.length > 0) throw badModifier('resize', 'WIDTHxHEIGHT', text);
  const width = int('resize', w, 1, ctx.maxDimension);
  const height = h === undefined ? width : int('resize', h, 1, ctx.maxDimension);
  return `${width}x${height}`;
}

function format(args: string[], ctx: RuleContext): string {
  const value = (single('format', args) ?? '').toLowerCase();
  if (value === 'auto') return value;
  const checked = ctx.formats.check(value);
  if (checked && 'format' in checked) return checked.format;
  if (checked)
    throw badModifier('format', `a format other than ${value} (${value.toUpperCase()} output is disabled, ${checked.disabledBy})`, value);
  return oneOf('format', value, ctx.formats.names());
}

/** `extend_10` pads every side; `extend_t_r_b_l` each side. */
function extend(args: string[], ctx: RuleContext): string {
  if (args.length !== 1 && args.length !== 4) throw badModifier('extend', 'one or four sizes', args.join('_'));
  const sides = args.map((a) => int('extend', a, 0, ctx.maxDimension));
  return (sides.length === 1 ? [sides[0], sides[0], sides[0], sides[0]] : sides).join('_');
}

function extract(args: string[], ctx: RuleContext): string {
  if (args.length !== 4) throw badModifier('extract', 'left_top_width_height', args.join('_'));
  const [left, top, width, height] = args;
  return [
    int('extract', left, 0, 100_000),
    int('extract', top, 0, 100_000),
    int('extract', width, 1, ctx.maxDimension),
    int('extract', height, 1, ctx.maxDimension),
  ].join('_');
}

function sharpen(args: string[]): string {
  if (args.length > 3) throw badModifier('sharpen', 'sigma_flat_jagged', args.join('_'));
  if (args.length === 0 || args[0] === '') return 'true';
  const [sigma, flat, jagged] = args;
  const parts = [num('sharpen', sigma, 0.01, 10)];
  if (flat !== undefined) parts.push(num('sharpen', flat, 0, 10_000));
  if (jagged !== undefined) parts.push(num('sharpen', jagged, 0, 10_000));
  return parts.join('_');
}

/** An optional number: absent gives `fallback` (sharp's own default for the operation). */
const optional =
  (name: string, min: number, max: number, fallback: string, integer = false): Rule =>
  (args) => {
    const value = single(name, args);
    if (value === undefined || value === '') return fallback;
    return String(integer ? int(name, value, min, max) : num(name, value, min, max));
  };

function gamma(args: string[]): string {
  if (args.length > 2) throw badModifier('gamma', 'gamma_gammaOut', args.join('_'));
  if (args.length === 0 || args[0] === '') return '2.2';
  return args.map((a) => num('gamma', a, 1, 3)).join('_');
}

/** `modulate_brightness[_saturation[_hue]]`. */
function modulate(args: string[]): string {
  if (args.length < 1 || args.length > 3) throw badModifier('modulate', 'brightness_saturation_hue', args.join('_'));
  const [brightness, saturation = '1', hue = '0'] = args;
  return [num('modulate', brightness, 0.01, 10), num('modulate', saturation, 0, 10), int('modulate', hue, -360, 360)].join('_');
}

/** trim: ipx 3 passes a number where sharp 0.34 wants an object, so it gets the object as JSON. */
function trim(args: string[]): string {
  const value = single('trim', args);
  if (value === undefined || value === '') return '{}';
  return JSON.stringify({ threshold: int('trim', value, 0, 255) });
}

const rules: Record<string, Rule> = {
  width: dimension('width'),
  height: dimension('height'),
  resize,
  quality: (args) => String(int('quality', single('quality', args), 1, 100)),
  fit: (args) => oneOf('fit', single('fit', args), FITS),
  position: (args) => oneOf('position', single('position', args), POSITIONS),
  background: (args) => colour('background', single('background', args)),
  enlarge: (args) => bare('enlarge', single('enlarge', args)),
  kernel: (args) => oneOf('kernel', single('kernel', args), KERNELS),
  trim,
  extend,
  extract,
  rotate: (args) => String(num('rotate', single('rotate', args), -360, 360)),
  flip: (args) => bare('flip', single('flip', args)),
  flop: (args) => bare('flop', single('flop', args)),
  sharpen,
  median: optional('median', 1, 25, '3', true),
  blur: optional('blur', 0.3, 100, 'true'),
  flatten: (args) => bare('flatten', single('flatten', args)),
  gamma,
  negate: (args) => bare('negate', single('negate', args)),
  normalize: (args) => bare('normalize', single('normalize', args)),
  threshold: optional('threshold', 0, 255, '128', true),
  modulate,
  tint: (args) => colour('tint', single('tint', args)),
  grayscale: (args) => bare('grayscale', single('grayscale', args)),
  format,
  animated: (args) => bare('animated', single('animated', args)),
};

const aliases: Record<string, string> = {
  w: 'width',
  h: 'height',
  s: 'resize',
  q: 'quality',
  pos: 'position',
  b: 'background',
  crop: 'extract',
  f: 'format',
  a: 'animated',
};

export type ModifierName = keyof typeof rules;

/**
 * Read by ipx itself when it creates the pipeline (the output format, animation), not by an entry
 * of its handler table.
 */
export const PIPELINE_MODIFIERS = ['format', 'f', 'animated', 'a'] as const;

/** Every name and alias accepted here: services/image/src/modifier-table.test.ts holds it to ipx's own table. */
export function acceptedModifierKeys(): string[] {
  return [...Object.keys(rules), ...Object.keys(aliases)];
}

/** The canonical name of a modifier or alias, or undefined when ipx has no such modifier. */
export function canonicalName(key: string): string | undefined {
  const name = aliases[key] ?? key;
  return Object.hasOwn(rules, name) ? name : undefined;
}

export function checkModifier(name: string, args: string[], ctx: RuleContext): string {
  return rules[name]!(args, ctx);
}
