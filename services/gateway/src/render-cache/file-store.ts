/**
 * The shared cache of the embedded mode: one file per entry under `{dir}/{build}/`, written
 * atomically (temporary file, then rename), expired on read. Older builds' folders are removed
 * when a new build is applied. A purge touches `{dir}/purged`, which gateways poll. Each build's
 * folder is listed once, so a miss costs no file system call (measured: misses that each tried a
 * read ran at 0.73x of no cache; see bench/render-cache.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeEntry, encodeEntry } from './cache-entry.js';
import { pathOfKey, pathPattern, type SharedCacheStore } from './shared-store.js';

const fileName = (key: string) => `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.bin`;
const buildOf = (key: string) => key.slice(0, key.indexOf(':'));

export function createFileCacheStore(dir: string, pollMs = 1000): SharedCacheStore & { keepOnly(buildId: string): Promise<void> } {
  const locks = new Map<string, number>();
  const fileOf = (key: string) => join(dir, buildOf(key), fileName(key));
  const marker = join(dir, 'purged');
  let tmp = 0;
  const listed = new Map<string, Promise<Set<string>>>();
  const namesOf = (build: string): Promise<Set<string>> => {
    let names = listed.get(build);
    if (!names) {
      names = readdir(join(dir, build)).then(
        (files) => new Set(files.filter((file) => file.endsWith('.bin'))),
        () => new Set<string>(),
      );
      listed.set(build, names);
    }
    return names;
  };

  return {
    kind: 'file',
    async get(key) {
      const names = await namesOf(buildOf(key));
      if (!names.has(fileName(key))) return null;
      const buffer = await readFile(fileOf(key)).catch(() => null);
      // Gone (purged by another process): forget it here too.
      if (!buffer) names.delete(fileName(key));
      const entry = buffer && decodeEntry(buffer);
      if (!entry || entry.key !== key) return null;
      if (entry.staleUntil !== null && entry.staleUntil < Date.now()) {
        await unlink(fileOf(key)).catch(() => undefined);
        return null;
      }
      return entry;
    },
    async set(entry, ttlMs) {
      const file = fileOf(entry.key);
      const temporary = `${file}.${process.pid}.${tmp++}.tmp`;
      try {
        const names = await namesOf(buildOf(entry.key));
        const data = encodeEntry({ ...entry, staleUntil: entry.staleUntil ?? Date.now() + ttlMs });
        // The build's folder is made on the first write that finds it missing.
        await writeFile(temporary, data).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await mkdir(join(dir, buildOf(entry.key)), { recursive: true });
          await writeFile(temporary, data);
        });
        await rename(temporary, file);
        names.add(fileName(entry.key));
      } catch {
        await unlink(temporary).catch(() => undefined);
      }
    },
    async lock(key, ttlMs) {
      const now = Date.now();
      if ((locks.get(key) ?? 0) > now) return false;
      locks.set(key, now + ttlMs);
      return true;
    },
    async unlock(key) {
      locks.delete(key);
    },
    async purge(pattern) {
      const matches = pathPattern(pattern);
      let removed = 0;
      for (const build of await readdir(dir).catch(() => [] as string[])) {
        if (build === 'purged') continue;
        for (const name of await readdir(join(dir, build)).catch(() => [] as string[])) {
          const file = join(dir, build, name);
          const entry = decodeEntry(await readFile(file).catch(() => Buffer.alloc(0)));
          if (!entry || !matches.test(pathOfKey(entry.key))) continue;
          await unlink(file).catch(() => undefined);
          removed++;
        }
      }
      await mkdir(dir, { recursive: true });
      const now = new Date();
      await utimes(marker, now, now).catch(() => writeFile(marker, ''));
      return removed;
    },
    onPurge(listener) {
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
    },
    async ping() {
      return true;
    },
    async keepOnly(buildId) {
      for (const build of await readdir(dir).catch(() => [] as string[])) {
        if (build === buildId || build === 'purged') continue;
        listed.delete(build);
        await rm(join(dir, build), { recursive: true, force: true });
      }
    },
    async close() {},
  };
}
