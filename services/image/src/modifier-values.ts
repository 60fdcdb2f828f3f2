/** Value checks for modifier arguments: each returns the value as ipx should receive it, or throws 400. */
import { createError, type HttpError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';

export function badModifier(name: string, expected: string, got: string): HttpError {
  return createError(IMAGE_ERRORS.IMAGE_BAD_MODIFIER_VALUE(name, expected, got));
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;
const INTEGER = /^-?\d+$/;

export function int(name: string, value: string | undefined, min: number, max: number): number {
  const text = value ?? '';
  const n = Number(text);
  if (!INTEGER.test(text) || n < min || n > max) throw badModifier(name, `a whole number from ${min} to ${max}`, text);
  return n;
}

export function num(name: string, value: string | undefined, min: number, max: number): number {
  const text = value ?? '';
  const n = Number(text);
  if (!NUMBER.test(text) || n < min || n > max) throw badModifier(name, `a number from ${min} to ${max}`, text);
  return n;
}

export function oneOf(name: string, value: string | undefined, allowed: readonly string[]): string {
  const text = (value ?? '').toLowerCase();
  if (!allowed.includes(text)) throw badModifier(name, `one of ${allowed.join(', ')}`, value ?? '');
  return text;
}

/** A switch such as `flip`: no value, or an explicit true. */
export function bare(name: string, value: string | undefined): string {
  if (value === undefined || value === '' || value === 'true' || value === '1') return '';
  throw badModifier(name, 'no value', value);
}

const HEX = /^#?([\da-f]{3}|[\da-f]{4}|[\da-f]{6}|[\da-f]{8})$/i;
const NAMED = /^[a-z]{3,24}$/i;

/** `fff`, `#ffffff`, `ffffff80` or a CSS colour name; hex gets its `#` here so ipx reads it as text. */
export function colour(name: string, value: string | undefined): string {
  const text = value ?? '';
  if (HEX.test(text)) return text.startsWith('#') ? text : `#${text}`;
  if (NAMED.test(text)) return text.toLowerCase();
  throw badModifier(name, 'a hex colour such as ff0000 or a colour name', text);
}
