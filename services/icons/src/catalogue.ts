/**
 * The collection list of @iconify/json (collections.json, about 230 sets), read once at start,
 * and the package version that goes into every ETag.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir as iconifyJsonDir } from '@iconify/json';
import { ICON_NAME_PATTERN } from './names.js';

export interface CollectionSummary {
  prefix: string;
  name: string;
  total: number;
}

export interface Catalogue {
  /** The @iconify/json version: icon data changes only when it does. */
  version: string;
  /** Own keys only, so `constructor` or `__proto__` is never a collection. */
  has(prefix: string): boolean;
  list(): readonly CollectionSummary[];
  /** The JSON file of a known prefix; callers check `has` first. */
  filePath(prefix: string): string;
}

interface RawInfo {
  name?: unknown;
  total?: unknown;
}

export async function readCatalogue(packageDir: string = iconifyJsonDir): Promise<Catalogue> {
  const [rawList, rawPackage] = await Promise.all([
    readFile(join(packageDir, 'collections.json'), 'utf8'),
    readFile(join(packageDir, 'package.json'), 'utf8'),
  ]);
  const info = JSON.parse(rawList) as Record<string, RawInfo>;
  const version = String((JSON.parse(rawPackage) as { version?: unknown }).version ?? 'unknown');
  const summaries = new Map<string, CollectionSummary>();
  for (const prefix of Object.keys(info).sort()) {
    // A prefix outside the name rule could not be requested anyway; keeping it out keeps paths safe.
    if (!ICON_NAME_PATTERN.test(prefix)) continue;
    const entry = info[prefix] ?? {};
    summaries.set(prefix, {
      prefix,
      name: typeof entry.name === 'string' ? entry.name : prefix,
      total: typeof entry.total === 'number' ? entry.total : 0,
    });
  }
  const list = [...summaries.values()];
  return {
    version,
    has: (prefix) => summaries.has(prefix),
    list: () => list,
    filePath: (prefix) => join(packageDir, 'json', `${prefix}.json`),
  };
}
