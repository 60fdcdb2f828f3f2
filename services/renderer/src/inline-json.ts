/**
 * `toScriptSafeJson` (runtime/shared/payload.ts) for the inline payload, with the escaped JSON of long
 * strings and of property names remembered. A content page's payload is mostly rendered HTML that is the same on every request
 * (and the same string objects, so the lookup is cheap); escaping it each time was ~6% of a page.
 * The output is the text `toScriptSafeJson(value)` gives, except that a `domHtml` value becomes its
 * reference (runtime/shared/dom-html.ts: the document carries that HTML); anything that is not a plain object,
 * array or primitive goes through it whole (a nested `toJSON` is called without its key).
 */
import { domHtmlReference, isDomHtml } from '@tern/runtime/shared/dom-html';
import { toScriptSafeJson } from '@tern/runtime/shared/payload';

const LONG = 128;
const MAX_ENTRIES = 1024;
const strings = new Map<string, string>();

/** Remembered for what comes back on every request: long strings (content) and property names. */
function stringJson(value: string, remember = value.length >= LONG): string {
  if (!remember) return toScriptSafeJson(value);
  let json = strings.get(value);
  if (json === undefined) {
    json = toScriptSafeJson(value);
    // Bounded: content strings are few per build; anything else must not grow it for ever.
    if (strings.size >= MAX_ENTRIES) strings.clear();
    strings.set(value, json);
  }
  return json;
}

/** JSON.stringify drops these in objects and writes null for them in arrays. */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function write(value: unknown): string {
  if (typeof value === 'string') return stringJson(value);
  // JSON writes a finite number as String does, and nothing else (NaN, Infinity) as null.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (value === null || typeof value !== 'object') return toScriptSafeJson(value);
  // HTML the document holds: its reference only (runtime/shared/dom-html.ts).
  if (isDomHtml(value)) return write(domHtmlReference(value));
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (skipped(value[i]) ? 'null' : write(value[i]));
    return `${out}]`;
  }
  if (!isPlainObject(value)) return toScriptSafeJson(value);
  let out = '{';
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (skipped(item)) continue;
    out += `${out.length > 1 ? ',' : ''}${stringJson(key, true)}:${write(item)}`;
  }
  return `${out}}`;
}

/** Script-safe JSON of `value`, the same text `toScriptSafeJson` gives. */
export function toInlineJson(value: unknown): string {
  return write(value);
}
