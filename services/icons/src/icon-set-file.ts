/** Reads one collection file of @iconify/json and keeps only what a subset response needs. */
import { isAscii } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import type { IconifyJSON } from '@iconify/types';

export interface LoadedIconSet {
  data: IconifyJSON;
  /** Approximate heap cost, for the memory-bounded cache. */
  bytes: number;
}

/**
 * Parsed sets measured 0.2x to 2.4x their file size on the heap (Node 20); twice the file size
 * keeps the estimate on the safe side for the common sets.
 */
const HEAP_BYTES_PER_FILE_BYTE = 2;

export async function readIconSetFile(path: string, prefix: string): Promise<LoadedIconSet> {
  const raw = await readFile(path);
  // The files are ASCII (non-ASCII is escaped): latin1 skips UTF-8 decoding, same string.
  const text = raw.toString(isAscii(raw) ? 'latin1' : 'utf8');
  const parsed = JSON.parse(text) as Partial<IconifyJSON>;
  if (parsed.prefix !== prefix || !isRecord(parsed.icons)) {
    throw new Error(`icon set file for ${prefix} is not an IconifyJSON set`);
  }
  return { data: slimIconSet(parsed as IconifyJSON), bytes: text.length * HEAP_BYTES_PER_FILE_BYTE };
}

/**
 * Drops info, categories, chars, prefixes and suffixes, and gives `icons` and `aliases` no
 * prototype: @iconify/utils looks names up with `icons[name]`, so `constructor` must miss.
 */
export function slimIconSet(set: IconifyJSON): IconifyJSON {
  const slim: IconifyJSON = {
    prefix: set.prefix,
    icons: Object.setPrototypeOf(set.icons, null) as IconifyJSON['icons'],
  };
  if (set.lastModified !== undefined) slim.lastModified = set.lastModified;
  if (isRecord(set.aliases)) slim.aliases = Object.setPrototypeOf(set.aliases, null) as IconifyJSON['aliases'];
  for (const key of ['width', 'height', 'left', 'top'] as const) {
    if (typeof set[key] === 'number') slim[key] = set[key];
  }
  return slim;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
