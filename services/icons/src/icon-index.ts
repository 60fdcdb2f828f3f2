/**
 * Reading a set through its build-time index (see icon-index-build.ts): the index is small and
 * stays in the cache; each request reads only its icons' byte ranges from the @iconify/json file,
 * so a cold request for a 100 MB emoji set costs a few kilobytes, not a parse of the whole file.
 */
import { readFile, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IconifyAliases, IconifyIcon, IconifyJSON } from '@iconify/types';
import { buildDir } from '@tern/shared/config/paths';
import type { IconReads, IconSource, LoadedIconSet } from './icon-set-file.js';

export const ICON_INDEX_FORMAT = 1;

/**
 * The build-time icon indexes of `npm run build`. Here rather than in app.ts: the build step that
 * writes them imports this module, and its inputs are the sources it imports
 * (packages/cli/src/build-steps.mjs), so the service's own code changing does not redo them.
 */
export const DEFAULT_ICON_INDEX_DIR = join(buildDir, 'icons');

/** dist/icons/{prefix}.json, written by `npm run build:icons`. */
export interface IconIndexFile {
  format: typeof ICON_INDEX_FORMAT;
  /** The @iconify/json version and file size it was built from: a mismatch means stale. */
  version: string;
  fileBytes: number;
  prefix: string;
  lastModified?: number;
  width?: number;
  height?: number;
  left?: number;
  top?: number;
  aliases?: IconifyAliases;
  /** Icon names, and per name two numbers in `ranges`: byte offset and length of its JSON. */
  names: string[];
  ranges: number[];
}

export function iconIndexPath(indexDir: string, prefix: string): string {
  return join(indexDir, `${prefix}.json`);
}

/**
 * The set behind its index, or undefined when there is no index or it was built from another
 * @iconify/json (the caller then reads the whole file).
 */
export async function readIconIndex(
  indexDir: string,
  dataPath: string,
  prefix: string,
  version: string,
  reads: IconReads,
): Promise<LoadedIconSet | undefined> {
  let text: string;
  try {
    text = await readFile(iconIndexPath(indexDir, prefix), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  reads.bytesRead += text.length;
  const index = JSON.parse(text) as IconIndexFile;
  if (index.format !== ICON_INDEX_FORMAT || index.version !== version || index.prefix !== prefix) return undefined;
  if ((await stat(dataPath)).size !== index.fileBytes) return undefined;
  reads.indexLoads += 1;
  return { source: new IndexedIconSet(index, dataPath, reads), bytes: text.length * 3 };
}

class IndexedIconSet implements IconSource {
  readonly prefix: string;
  private readonly positions = new Map<string, number>();
  private readonly aliases: IconifyAliases;

  constructor(
    private readonly index: IconIndexFile,
    private readonly dataPath: string,
    private readonly reads: IconReads,
  ) {
    this.prefix = index.prefix;
    index.names.forEach((name, i) => this.positions.set(name, i));
    // No prototype: `constructor` must not look like an alias.
    this.aliases = Object.setPrototypeOf(index.aliases ?? {}, null) as IconifyAliases;
  }

  async pick(names: readonly string[]): Promise<IconifyJSON> {
    const icons = Object.create(null) as Record<string, IconifyIcon>;
    const aliases = Object.create(null) as IconifyAliases;
    const wanted = new Map<string, number>();
    for (const name of names) {
      // An alias names its parent, maybe another alias: follow the chain to an icon.
      const seen = new Set<string>();
      for (let current: string | undefined = name; current !== undefined && !seen.has(current);) {
        seen.add(current);
        const position = this.positions.get(current);
        if (position !== undefined) {
          wanted.set(current, position);
          break;
        }
        const alias: IconifyAliases[string] | undefined = this.aliases[current];
        if (alias) aliases[current] = alias;
        current = alias?.parent;
      }
    }
    if (wanted.size > 0) await this.readIcons(wanted, icons);
    const set: IconifyJSON = { prefix: this.prefix, icons, aliases };
    for (const key of ['lastModified', 'width', 'height', 'left', 'top'] as const) {
      const value = this.index[key];
      if (value !== undefined) set[key] = value;
    }
    return set;
  }

  private async readIcons(wanted: Map<string, number>, into: Record<string, IconifyIcon>): Promise<void> {
    const { ranges } = this.index;
    const handle = await open(this.dataPath);
    try {
      await Promise.all(
        [...wanted].map(async ([name, position]) => {
          const offset = ranges[position * 2]!;
          const length = ranges[position * 2 + 1]!;
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await handle.read(buffer, 0, length, offset);
          if (bytesRead !== length) throw new Error(`${this.prefix}: short read of ${name}`);
          this.reads.bytesRead += length;
          into[name] = JSON.parse(buffer.toString('utf8')) as IconifyIcon;
        }),
      );
    } finally {
      await handle.close();
    }
  }
}
