/**
 * What the icon-set cache holds (an IconSource), and the whole-file way to get one: read a
 * collection file of @iconify/json and keep only what a subset response needs. The service uses
 * it for its preloaded sets and for any set without a build-time index (icon-index.ts).
 */
import { isAscii } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import type { IconifyJSON } from '@iconify/types';

export interface IconSource {
  prefix: string;
  /**
   * A set holding at least the named icons and whatever their aliases resolve to, for
   * @iconify/utils' getIcons and getIconData; names it lacks are simply absent.
   */
  pick(names: readonly string[]): Promise<IconifyJSON>;
}

export interface LoadedIconSet {
  source: IconSource;
  /** Approximate heap cost, for the memory-bounded cache. */
  bytes: number;
}

/** Disk reads of the icon sets, for the metrics and for tests that must see what a request cost. */
export interface IconReads {
  bytesRead: number;
  /** Whole @iconify/json files read and parsed. */
  fullParses: number;
  /** Build-time indexes read instead. */
  indexLoads: number;
}

export function newIconReads(): IconReads {
  return { bytesRead: 0, fullParses: 0, indexLoads: 0 };
}

/**
 * Parsed sets measured 0.2x to 2.4x their file size on the heap (Node 20); twice the file size
 * keeps the estimate on the safe side for the common sets.
 */
const HEAP_BYTES_PER_FILE_BYTE = 2;

export async function readIconSetFile(path: string, prefix: string, reads: IconReads = newIconReads()): Promise<LoadedIconSet> {
  const raw = await readFile(path);
  reads.bytesRead += raw.length;
  reads.fullParses += 1;
  // The files are ASCII (non-ASCII is escaped): latin1 skips UTF-8 decoding, same string.
  const text = raw.toString(isAscii(raw) ? 'latin1' : 'utf8');
  const parsed = JSON.parse(text) as Partial<IconifyJSON>;
  if (parsed.prefix !== prefix || !isRecord(parsed.icons)) {
    throw new Error(`icon set file for ${prefix} is not an IconifyJSON set`);
  }
  const data = slimIconSet(parsed as IconifyJSON);
  return { source: { prefix, pick: () => Promise.resolve(data) }, bytes: text.length * HEAP_BYTES_PER_FILE_BYTE };
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
