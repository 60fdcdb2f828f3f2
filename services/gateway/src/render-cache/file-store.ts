/**
 * The shared cache of the embedded mode: one file per entry under `{dir}/{build}/`, written
 * atomically (temporary file, then rename), expired on read. Older builds' folders are removed
 * when a new build is applied. A purge touches `{dir}/purged`, which gateways poll. Each build's
 * folder is listed once, so a miss costs no file system call (measured: misses that each tried a
 * read ran at 0.73x of no cache; see bench/render-cache.ts).
 *
 * The files hold at most `maxBytes` (CACHE_FILE_BYTES): the listing knows each file's size, and a
 * write that would pass the budget first removes the least recently written files. The count is
 * this process's (the embedded mode has one gateway): files another process wrote are counted
 * once this one lists their folder.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeEntry, encodeEntry, type CacheEntry } from './cache-entry.js';
import { pathOfKey, pathPattern, type SharedCacheStore } from './shared-store.js';

export interface FileStoreOptions {
  pollMs?: number;
  /** The byte budget of all entry files; unbounded when absent. */
  maxBytes?: number;
  now?: () => number;
}

const fileName = (key: string) => `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.bin`;
const buildOf = (key: string) => key.slice(0, key.indexOf(':'));

/** Sizes of one build folder's files, oldest written first (a Map keeps insertion order). */
type Sizes = Map<string, number>;

async function listSizes(folder: string): Promise<Sizes> {
  const files = (await readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith('.bin'));
  const found = await Promise.all(
    files.map(async (name) => {
      const info = await stat(join(folder, name)).catch(() => null);
      return info ? { name, size: info.size, time: info.mtimeMs } : null;
    }),
  );
  const present = found.filter((file): file is NonNullable<typeof file> => file !== null).sort((a, b) => a.time - b.time);
  return new Map(present.map((file) => [file.name, file.size]));
}

/** What the files of every listed build folder weigh: listed once per folder, then kept up to date here. */
interface FileBudget {
  namesOf(build: string): Promise<Sizes>;
  /** The folder's sizes if it was listed already (a purge lists nothing new). */
  listedOnly(build: string): Promise<Sizes> | undefined;
  forget(names: Sizes, name: string): void;
  /** A file about to be rewritten: its bytes no longer count, and it is still there until the rename. */
  release(names: Sizes, name: string): void;
  /** Removes the least recently written files until `incoming` more bytes fit. */
  makeRoom(incoming: number): Promise<void>;
  /** A file written: last written, last to go. */
  written(names: Sizes, name: string, size: number): void;
  /** Forgets a build's folder, about to be removed. */
  drop(build: string): Promise<void>;
  total(): number;
}

function createFileBudget(dir: string, maxBytes: number): FileBudget {
  let total = 0;
  const listed = new Map<string, Promise<Sizes>>();
  const forget = (names: Sizes, name: string) => {
    total -= names.get(name) ?? 0;
    names.delete(name);
  };
  return {
    namesOf(build) {
      let names = listed.get(build);
      if (!names) {
        names = listSizes(join(dir, build)).then((sizes) => {
          for (const size of sizes.values()) total += size;
          return sizes;
        });
        listed.set(build, names);
      }
      return names;
    },
    listedOnly: (build) => listed.get(build),
    forget,
    release(names, name) {
      total -= names.get(name) ?? 0;
      names.set(name, 0);
    },
    async makeRoom(incoming) {
      for (const [build, pending] of listed) {
        const names = await pending;
        for (const name of [...names.keys()]) {
          if (total + incoming <= maxBytes) return;
          forget(names, name);
          await unlink(join(dir, build, name)).catch(() => undefined);
        }
      }
    },
    written(names, name, size) {
      names.delete(name);
      names.set(name, size);
      total += size;
    },
    async drop(build) {
      const names = listed.get(build);
      listed.delete(build);
      if (names) for (const size of (await names).values()) total -= size;
    },
    total: () => total,
  };
}

/** Writes one entry atomically (a temporary file, then a rename) within the budget; a failed write leaves nothing. */
async function writeEntryFile(dir: string, budget: FileBudget, entry: CacheEntry, data: Buffer, maxBytes: number): Promise<void> {
  const file = join(dir, buildOf(entry.key), fileName(entry.key));
  const temporary = `${file}.${process.pid}.${tmp++}.tmp`;
  try {
    const names = await budget.namesOf(buildOf(entry.key));
    // An entry larger than the whole budget is not kept (as the memory LRU does).
    if (data.length > maxBytes) return;
    // A rewrite (a new encoding added) replaces the old file: its bytes no longer count, and it
    // stays readable until the rename.
    const name = fileName(entry.key);
    if (names.has(name)) budget.release(names, name);
    await budget.makeRoom(data.length);
    // The build's folder is made on the first write that finds it missing.
    await writeFile(temporary, data).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      await mkdir(join(dir, buildOf(entry.key)), { recursive: true });
      await writeFile(temporary, data);
    });
    await rename(temporary, file);
    budget.written(names, name, data.length);
  } catch {
    await unlink(temporary).catch(() => undefined);
  }
}

let tmp = 0;

/** Removes every entry whose path matches `pattern`, then touches the marker other gateways poll. */
async function purgeFiles(dir: string, budget: FileBudget, pattern: string): Promise<number> {
  const matches = pathPattern(pattern);
  let removed = 0;
  for (const build of await readdir(dir).catch(() => [] as string[])) {
    if (build === PURGED) continue;
    for (const name of await readdir(join(dir, build)).catch(() => [] as string[])) {
      const file = join(dir, build, name);
      const entry = decodeEntry(await readFile(file).catch(() => Buffer.alloc(0)));
      if (!entry || !matches.test(pathOfKey(entry.key))) continue;
      const names = budget.listedOnly(build);
      if (names) budget.forget(await names, name);
      await unlink(file).catch(() => undefined);
      removed++;
    }
  }
  await mkdir(dir, { recursive: true });
  const touched = new Date();
  const marker = join(dir, PURGED);
  await utimes(marker, touched, touched).catch(() => writeFile(marker, ''));
  return removed;
}

/** Calls `listener` when the purge marker changes; returns the stop. */
function watchPurges(marker: string, pollMs: number, listener: () => void): () => void {
  // null until the first look; 0 while there is no marker yet.
  let seen: number | null = null;
  const look = () =>
    void stat(marker).then(
      ({ mtimeMs }) => {
        if (seen !== null && mtimeMs !== seen) listener();
        seen = mtimeMs;
      },
      () => (seen = 0),
    );
  look();
  const timer = setInterval(look, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}

const PURGED = 'purged';

export function createFileCacheStore(
  dir: string,
  { pollMs = 1000, maxBytes = Number.POSITIVE_INFINITY, now = Date.now }: FileStoreOptions = {},
): SharedCacheStore & { keepOnly(buildId: string): Promise<void>; bytes(): number } {
  const locks = new Map<string, number>();
  const fileOf = (key: string) => join(dir, buildOf(key), fileName(key));
  const budget = createFileBudget(dir, maxBytes);
  let writes: Promise<void> = Promise.resolve();

  async function read(key: string): Promise<CacheEntry | null> {
    const names = await budget.namesOf(buildOf(key));
    if (!names.has(fileName(key))) return null;
    const buffer = await readFile(fileOf(key)).catch(() => null);
    // Gone (purged by another process): forget it here too.
    if (!buffer) budget.forget(names, fileName(key));
    const entry = buffer && decodeEntry(buffer);
    if (!entry || entry.key !== key) return null;
    if (entry.staleUntil !== null && entry.staleUntil < now()) {
      budget.forget(names, fileName(key));
      await unlink(fileOf(key)).catch(() => undefined);
      return null;
    }
    return entry;
  }

  return {
    kind: 'file',
    get: read,
    set(entry, ttlMs) {
      const data = encodeEntry({ ...entry, staleUntil: entry.staleUntil ?? now() + ttlMs });
      // One write at a time: the budget is checked and spent by one writer, never overshot by two.
      const write = writes.then(() => writeEntryFile(dir, budget, entry, data, maxBytes));
      writes = write;
      return write;
    },
    async lock(key, ttlMs) {
      const at = now();
      if ((locks.get(key) ?? 0) > at) return false;
      locks.set(key, at + ttlMs);
      return true;
    },
    async unlock(key) {
      locks.delete(key);
    },
    purge: (pattern) => purgeFiles(dir, budget, pattern),
    onPurge: (listener) => watchPurges(join(dir, PURGED), pollMs, listener),
    async ping() {
      return true;
    },
    async keepOnly(buildId) {
      for (const build of await readdir(dir).catch(() => [] as string[])) {
        if (build === buildId || build === PURGED) continue;
        await budget.drop(build);
        await rm(join(dir, build), { recursive: true, force: true });
      }
    },
    bytes: () => budget.total(),
    async close() {},
  };
}
