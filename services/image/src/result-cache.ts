/**
 * The result cache: transformed images on disk (`<dir>/<ab>/<key>.<ext>`), found through a bounded
 * in-memory index. Evicting an entry deletes its file, so the disk stays bounded too. Files left by
 * an earlier run are indexed at start, newest last so they are the ones kept. Small, recently used
 * results are also held in memory (bounded in bytes), so a hot hit costs no file read.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Lru } from '@tern/shared/http-cache/lru';
import { formatNamed, formatOfExt } from './formats.js';
import type { TransformResult } from './transform.js';

export interface CacheEntry {
  file: string;
  format: string;
}

const KEY_FILE = /^([\w-]{20,})\.([a-z0-9]+)$/;
/** A result's file is named by its format's extension (formats.ts), which names its format again at start. */
const extOfFormat = (format: string) => formatNamed(format)?.ext ?? format.replace(/[^a-z0-9]/g, '');

const MEMORY_ITEM_LIMIT = 512 * 1024;

export class ResultCache {
  private readonly index: Lru<CacheEntry>;
  private readonly hot: Lru<Buffer>;

  constructor(
    private readonly dir: string,
    maxEntries: number,
    maxBytes: number,
    memoryBytes: number,
    private readonly onError: (error: unknown, action: string) => void = () => undefined,
  ) {
    this.index = new Lru<CacheEntry>({
      maxEntries,
      maxSize: maxBytes,
      onEvict: (key, entry) => {
        this.hot.delete(key);
        unlink(entry.file).catch(() => undefined);
      },
    });
    this.hot = new Lru<Buffer>({ maxEntries, maxSize: memoryBytes });
  }

  private remember(key: string, data: Buffer): void {
    if (data.length <= MEMORY_ITEM_LIMIT) this.hot.set(key, data, data.length);
  }

  get entries(): number {
    return this.index.size;
  }

  get bytes(): number {
    return this.index.totalSize;
  }

  /** Creates the folder and indexes what an earlier run left there. */
  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const found: Array<{ key: string; entry: CacheEntry; size: number; mtime: number }> = [];
    for (const shard of await readdir(this.dir).catch(() => [] as string[])) {
      if (!/^[\w-]{2}$/.test(shard)) continue;
      for (const name of await readdir(join(this.dir, shard)).catch(() => [] as string[])) {
        const match = KEY_FILE.exec(name);
        const file = join(this.dir, shard, name);
        const format = match ? formatOfExt(match[2]!)?.name : undefined;
        const info = format ? await stat(file).catch(() => undefined) : undefined;
        if (match && format && info) found.push({ key: match[1]!, entry: { file, format }, size: info.size, mtime: info.mtimeMs });
        else if (name.endsWith('.tmp')) await unlink(file).catch(() => undefined);
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const { key, entry, size } of found) this.index.set(key, entry, size);
  }

  /** The cached bytes, or undefined (a file removed behind our back is forgotten). */
  async read(key: string): Promise<(TransformResult & { entry: CacheEntry }) | undefined> {
    const entry = this.index.get(key);
    if (!entry) return undefined;
    const held = this.hot.get(key);
    if (held) return { data: held, format: entry.format, entry };
    try {
      const data = await readFile(entry.file);
      this.remember(key, data);
      return { data, format: entry.format, entry };
    } catch {
      this.index.delete(key);
      this.hot.delete(key);
      return undefined;
    }
  }

  /** Written to a temporary name and renamed, so a reader never sees half a file. */
  async put(key: string, result: TransformResult): Promise<void> {
    const folder = join(this.dir, key.slice(0, 2));
    const file = join(folder, `${key}.${extOfFormat(result.format)}`);
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await mkdir(folder, { recursive: true });
      await writeFile(temp, result.data);
      await rename(temp, file);
      this.index.set(key, { file, format: result.format }, result.data.length);
      this.remember(key, result.data);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      this.onError(error, 'write');
    }
  }

  /** A real write and delete: a read-only mount passes access(W_OK) for root but fails this. */
  async writable(): Promise<boolean> {
    const probe = join(this.dir, `.ready-${randomUUID()}.tmp`);
    try {
      await mkdir(this.dir, { recursive: true });
      await access(this.dir, constants.W_OK);
      await writeFile(probe, 'ok');
      await unlink(probe);
      return true;
    } catch {
      return false;
    }
  }
}
