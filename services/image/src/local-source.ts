/**
 * Local sources, rooted in one folder. A path is refused unless every segment is a plain name and
 * its real path (symlinks followed) lies inside the real root: `root + sep`, never a bare prefix
 * (CVE-2025-54387: /x/public must not reach /x/public-secret).
 */
import type { Stats } from 'node:fs';
import { realpath, readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { createError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';
import { Lru } from '@tern/shared/http-cache/lru';
import type { LoadedSource, SourceMeta } from './source.js';

const forbidden = (id: string) => createError(IMAGE_ERRORS.IMAGE_SOURCE_FORBIDDEN(id));
const notFound = (id: string) => createError(IMAGE_ERRORS.IMAGE_SOURCE_NOT_FOUND(id));
const UNSAFE_CHARS = /[\0\\:*?"<>|]/;

/** The path segments of a source id, or 403 for `..`, `.`, empty segments and odd characters. */
export function safeSegments(id: string): string[] {
  const segments = id.replace(/^\//, '').split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || UNSAFE_CHARS.test(segment)) throw forbidden(id);
  }
  return segments;
}

export function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export interface LocalFiles {
  meta(id: string): Promise<SourceMeta & { path: string }>;
  load(id: string): Promise<LoadedSource>;
}

export function createLocalFiles(root: string, maxBytes: number): LocalFiles {
  let realRoot: Promise<string> | undefined;
  const rootPath = () => (realRoot ??= realpath(root).catch(() => root));
  // Checked real paths by id, trusted again only while the file is the same inode.
  const checked = new Lru<{ path: string; dev: number; ino: number }>({ maxEntries: 2000 });

  async function realPathInside(id: string, joined: string, stats: Stats, base: string): Promise<string> {
    const known = checked.get(id);
    if (known && known.dev === stats.dev && known.ino === stats.ino) return known.path;
    const path = await realpath(joined).catch(() => {
      throw notFound(id);
    });
    if (!isInside(base, path)) throw forbidden(id);
    checked.set(id, { path, dev: stats.dev, ino: stats.ino });
    return path;
  }

  async function meta(id: string): Promise<SourceMeta & { path: string }> {
    const segments = safeSegments(id);
    const base = await rootPath();
    const joined = join(base, ...segments);
    let stats: Stats;
    try {
      stats = await stat(joined);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw notFound(id);
      throw forbidden(id);
    }
    const path = await realPathInside(id, joined, stats, base);
    if (!stats.isFile()) throw notFound(id);
    if (stats.size > maxBytes) throw createError(IMAGE_ERRORS.IMAGE_SOURCE_TOO_LARGE(maxBytes));
    return { id, path, identity: `${stats.size}-${Math.floor(stats.mtimeMs)}`, mtime: stats.mtime };
  }

  async function load(id: string): Promise<LoadedSource> {
    const found = await meta(id);
    const data = await readFile(found.path).catch(() => {
      throw notFound(id);
    });
    return { id, identity: found.identity, mtime: found.mtime, data };
  }

  return { meta, load };
}
