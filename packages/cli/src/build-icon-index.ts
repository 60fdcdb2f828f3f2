/**
 * Build step: a per-set index of every @iconify/json collection into dist/icons/{prefix}.json
 * (services/icons/src/icon-index-build.ts), so the icon service reads only the requested icons of
 * a set it has not preloaded instead of parsing the whole file (up to 100 MB) on every cold load.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IconifyJSON } from '@iconify/types';
import { readCatalogue } from '@tern/icons/catalogue';
import { buildIconIndex } from '@tern/icons/icon-index-build';
import { DEFAULT_ICON_INDEX_DIR, iconIndexPath } from '@tern/icons/icon-index';

export async function writeIconIndexes(outDir: string, prefixes?: readonly string[]): Promise<{ sets: number; bytes: number }> {
  const catalogue = await readCatalogue();
  mkdirSync(outDir, { recursive: true });
  let bytes = 0;
  const wanted = prefixes ?? catalogue.list().map((entry) => entry.prefix);
  for (const prefix of wanted) {
    const file = readFileSync(catalogue.filePath(prefix));
    const parsed = JSON.parse(file.toString('utf8')) as IconifyJSON;
    const text = JSON.stringify(buildIconIndex(file, parsed, catalogue.version));
    const path = iconIndexPath(outDir, prefix);
    // Written aside and renamed: a running service never reads half an index.
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    bytes += text.length;
  }
  return { sets: wanted.length, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const { sets, bytes } = await writeIconIndexes(DEFAULT_ICON_INDEX_DIR);
  process.stdout.write(`icons: ${sets} set indexes, ${(bytes / 1e6).toFixed(1)} MB, in ${Date.now() - started} ms\n`);
}
