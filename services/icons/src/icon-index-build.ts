/**
 * Builds the per-set index the icon service reads instead of a whole @iconify/json file: the
 * set's small parts (defaults, aliases) and, per icon, the byte range of its JSON in the original
 * file. The data is not copied: a request reads just its icons' ranges from @iconify/json itself.
 */
import type { IconifyJSON } from '@iconify/types';
import { ICON_INDEX_FORMAT, type IconIndexFile } from './icon-index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function skipSpace(buf: Buffer, at: number): number {
  while (at < buf.length && isSpace(buf[at]!)) at++;
  return at;
}

/** `at` is on the opening quote; returns the index after the closing one. */
function skipString(buf: Buffer, at: number): number {
  for (let i = at + 1; i < buf.length; i++) {
    const byte = buf[i]!;
    if (byte === BACKSLASH) i++;
    else if (byte === QUOTE) return i + 1;
  }
  throw new Error('unterminated string');
}

/** `at` is on the first byte of a value; returns the index after its last byte. */
function skipValue(buf: Buffer, at: number): number {
  const first = buf[at];
  if (first === QUOTE) return skipString(buf, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < buf.length; i++) {
      const byte = buf[i]!;
      if (byte === QUOTE) i = skipString(buf, i) - 1;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new Error('unterminated object or array');
  }
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  while (i < buf.length && !isSpace(buf[i]!) && buf[i] !== COMMA && buf[i] !== CLOSE_BRACE && buf[i] !== CLOSE_BRACKET) i++;
  if (i === at) throw new Error(`unexpected byte at ${at}`);
  return i;
}

/** The members of the object starting at `at` (on `{`): key and the byte range of each value. */
export function objectMembers(buf: Buffer, at: number): { key: string; start: number; end: number }[] {
  if (buf[at] !== OPEN_BRACE) throw new Error(`expected an object at ${at}`);
  const members: { key: string; start: number; end: number }[] = [];
  let i = skipSpace(buf, at + 1);
  if (buf[i] === CLOSE_BRACE) return members;
  for (;;) {
    if (buf[i] !== QUOTE) throw new Error(`expected a key at ${i}`);
    const keyEnd = skipString(buf, i);
    const key = JSON.parse(buf.toString('utf8', i, keyEnd)) as string;
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) throw new Error(`expected a colon at ${i}`);
    const start = skipSpace(buf, i + 1);
    const end = skipValue(buf, start);
    members.push({ key, start, end });
    i = skipSpace(buf, end);
    if (buf[i] === COMMA) i = skipSpace(buf, i + 1);
    else if (buf[i] === CLOSE_BRACE) return members;
    else throw new Error(`expected a comma or a closing brace at ${i}`);
  }
}

/**
 * The index of one set file. `parsed` is the same file through JSON.parse, for the small parts
 * and as a check: every icon the scan finds must be one the parser found, and no more.
 */
export function buildIconIndex(file: Buffer, parsed: IconifyJSON, version: string): IconIndexFile {
  const top = objectMembers(file, skipSpace(file, 0));
  const iconsMember = top.find((member) => member.key === 'icons');
  if (!iconsMember) throw new Error(`${parsed.prefix}: no icons object`);
  const names: string[] = [];
  const ranges: number[] = [];
  for (const { key, start, end } of objectMembers(file, iconsMember.start)) {
    if (!Object.hasOwn(parsed.icons, key)) throw new Error(`${parsed.prefix}: scanned icon ${key} is not in the parsed set`);
    names.push(key);
    ranges.push(start, end - start);
  }
  if (names.length !== Object.keys(parsed.icons).length)
    throw new Error(`${parsed.prefix}: scanned icon count differs from the parsed set`);
  const index: IconIndexFile = { format: ICON_INDEX_FORMAT, version, fileBytes: file.length, prefix: parsed.prefix, names, ranges };
  if (parsed.lastModified !== undefined) index.lastModified = parsed.lastModified;
  for (const key of ['width', 'height', 'left', 'top'] as const) {
    if (typeof parsed[key] === 'number') index[key] = parsed[key];
  }
  if (parsed.aliases && Object.keys(parsed.aliases).length > 0) index.aliases = parsed.aliases;
  return index;
}
