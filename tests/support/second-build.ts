/**
 * A second build for rollout tests, made from `dist/` in a second or two instead of a second Vite
 * build: the client files are copied under new hashed names (every reference to them rewritten,
 * the .br/.gz twins made again) and the meta gets a new id. The build that results shares no
 * client file name with the first, as two real builds of a changed source would not; the server
 * bundle and the content are the first build's (the renderer reads them from where they are).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { projectRoot } from '@tern/shared/config/paths';
import type { BuildMeta } from '@tern/shared/build-store';

export interface SecondBuild {
  id: string;
  clientDir: string;
  metaFile: string;
  /** old name → new name of every client file. */
  renamed: Map<string, string>;
}

const TEXT = /\.(js|css|json|html|svg|txt)$/;

export async function makeSecondBuild(target: string, id: string, source = join(projectRoot, 'dist')): Promise<SecondBuild> {
  const from = join(source, 'client');
  const clientDir = join(target, 'client');
  await mkdir(join(clientDir, '.vite'), { recursive: true });
  const names = (await readdir(from)).filter((name) => !/\.(br|gz|map)$/.test(name) && !name.startsWith('.'));
  // `entry-client-Doq3rTzh.js` → `entry-client-Doq3rTzh2nd.js`: still hashed-looking, never equal.
  const renamed = new Map(names.map((name) => [name, name.replace(/(\.[a-z0-9]+)$/, '2nd$1')]));
  const pattern = new RegExp(
    `(?<![A-Za-z0-9_.-])(${[...renamed.keys()]
      .sort((a, b) => b.length - a.length)
      .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})(?![A-Za-z0-9_-])`,
    'g',
  );
  const rewrite = (text: string) => text.replace(pattern, (name) => renamed.get(name)!);

  for (const [name, next] of renamed) {
    const original = await readFile(join(from, name));
    const body = TEXT.test(name) ? Buffer.from(rewrite(original.toString('utf8'))) : original;
    await writeFile(join(clientDir, next), body);
    const twins = await readdir(from).then((all) => all.filter((file) => file === `${name}.br` || file === `${name}.gz`));
    if (twins.includes(`${name}.br`)) {
      await writeFile(join(clientDir, `${next}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
    }
    if (twins.includes(`${name}.gz`)) await writeFile(join(clientDir, `${next}.gz`), gzipSync(body));
  }
  const manifest = await readFile(join(from, '.vite', 'manifest.json'), 'utf8');
  await writeFile(join(clientDir, '.vite', 'manifest.json'), rewrite(manifest));

  const meta = JSON.parse(await readFile(join(source, 'build', 'meta.json'), 'utf8')) as BuildMeta;
  const metaFile = join(target, 'build', 'meta.json');
  await mkdir(join(target, 'build'), { recursive: true });
  await writeFile(metaFile, JSON.stringify({ ...meta, id, timestamp: Date.now() } satisfies BuildMeta));
  return { id, clientDir, metaFile, renamed };
}
