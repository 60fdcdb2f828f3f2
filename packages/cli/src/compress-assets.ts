/**
 * Build step (`npm run build:compress`, after the client bundle): every hashed text asset of
 * dist/client gets a brotli (best level) and a gzip twin beside it, once. The renderer serves
 * them with the matching content-encoding (@fastify/static `preCompressed`), so no request ever
 * pays for compressing an asset. Source maps are left alone: they are never served.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildDir } from '@tern/shared/config/paths';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|webmanifest)$/;

/** Below this a file is served as it is: headers outweigh anything compression could save. */
export const MIN_COMPRESSED_BYTES = 128;

/** The files of `dir` (recursively) worth compressing: text, not already small. */
export function compressibleFiles(dir: string, minBytes = MIN_COMPRESSED_BYTES): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((file) => {
      // Vite's manifest folder is read by the server, never served.
      if (!COMPRESSIBLE.test(file) || file.includes(`${sep}.vite${sep}`)) return false;
      const stats = statSync(file);
      return stats.isFile() && stats.size >= minBytes;
    });
}

/** Writes `file.br` and `file.gz`; a twin that would not be smaller is not written. */
export function compressFile(file: string): { raw: number; br: number; gzip: number } {
  const data = readFileSync(file);
  const br = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  const gz = gzipSync(data, { level: 9 });
  if (br.length < data.length) writeFileSync(`${file}.br`, br);
  if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
  return { raw: data.length, br: br.length, gzip: gz.length };
}

function main(): void {
  const files = compressibleFiles(join(buildDir, 'client'));
  const totals = files
    .map(compressFile)
    .reduce((sum, size) => ({ raw: sum.raw + size.raw, br: sum.br + size.br, gzip: sum.gzip + size.gzip }), { raw: 0, br: 0, gzip: 0 });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  process.stdout.write(`compress: ${files.length} assets, ${kb(totals.raw)} -> ${kb(totals.br)} br, ${kb(totals.gzip)} gzip\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
