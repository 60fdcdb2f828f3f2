/**
 * Reads a client build's hashed files (`dist/client/*`, with the .br/.gz twins that
 * packages/cli/src/compress-assets.ts wrote) for the asset store. Source maps stay out: they are never served.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAssetName, type AssetFile } from './asset-types.js';

const TWIN = /\.(br|gz)$/;

export async function readClientAssets(dir: string): Promise<AssetFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
  const files: AssetFile[] = [];
  for (const name of [...names].sort()) {
    if (TWIN.test(name) || name.endsWith('.map') || !isAssetName(name)) continue;
    const twin = (suffix: string) => (names.has(`${name}${suffix}`) ? readFile(join(dir, `${name}${suffix}`)) : undefined);
    const [identity, br, gzip] = await Promise.all([readFile(join(dir, name)), twin('.br'), twin('.gz')]);
    files.push({ name, identity, br, gzip });
  }
  return files;
}
