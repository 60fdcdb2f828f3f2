/**
 * The asset store as files, for a shared folder (or `npm start`): `files/{name}` and its `.br` and
 * `.gz` twins, `builds/{id}.json` (the names of one build's files), `history.json` (the kept
 * builds, newest first). A file's age is its mtime: older than the TTL counts as gone.
 */
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isBuildId } from './types.js';
import { ASSET_BUILDS_KEPT, ASSET_TTL_MS, isAssetName, type AssetEncoding, type AssetStore, type AssetStoreLimits } from './asset-types.js';

export interface FileAssetStoreOptions extends Partial<AssetStoreLimits> {
  dir: string;
  /** The clock files age by (tests inject one); a file's age starts at its mtime. */
  now?: () => number;
}

const SUFFIX: Record<AssetEncoding, string> = { identity: '', br: '.br', gzip: '.gz' };

export function createFileAssetStore(options: FileAssetStoreOptions): AssetStore {
  const keep = options.keep ?? ASSET_BUILDS_KEPT;
  const ttlMs = options.ttlMs ?? ASSET_TTL_MS;
  const now = options.now ?? Date.now;
  const filesDir = join(options.dir, 'files');
  const buildsDir = join(options.dir, 'builds');
  const historyPath = join(options.dir, 'history.json');
  const filePath = (name: string, encoding: AssetEncoding) => join(filesDir, `${name}${SUFFIX[encoding]}`);
  const buildPath = (id: string) => join(buildsDir, `${id}.json`);

  async function write(path: string, data: Buffer | string): Promise<void> {
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, path);
  }

  /** The contents of a file younger than the TTL, or null. */
  async function readFresh(path: string): Promise<Buffer | null> {
    try {
      const info = await stat(path);
      if (info.mtimeMs + ttlMs <= now()) return null;
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async function namesOf(id: string): Promise<string[] | null> {
    const raw = await readFresh(buildPath(id));
    return raw ? (JSON.parse(raw.toString('utf8')) as string[]).filter(isAssetName) : null;
  }

  async function history(): Promise<string[]> {
    const raw = await readFile(historyPath, 'utf8').catch(() => '[]');
    return (JSON.parse(raw) as string[]).filter(isBuildId);
  }

  async function removeName(name: string): Promise<void> {
    await Promise.all((Object.keys(SUFFIX) as AssetEncoding[]).map((encoding) => rm(filePath(name, encoding), { force: true })));
  }

  return {
    kind: 'file',
    async publish(buildId, files) {
      if (!isBuildId(buildId)) throw new Error(`invalid build id: ${JSON.stringify(buildId)}`);
      const bad = files.find((file) => !isAssetName(file.name));
      if (bad) throw new Error(`invalid asset name: ${JSON.stringify(bad.name)}`);
      await mkdir(filesDir, { recursive: true });
      await mkdir(buildsDir, { recursive: true });
      for (const file of files) {
        for (const encoding of Object.keys(SUFFIX) as AssetEncoding[]) {
          const body = file[encoding];
          if (body) await write(filePath(file.name, encoding), body);
        }
      }
      // The files first, the build's list last: a build whose list exists has all its files.
      await write(buildPath(buildId), JSON.stringify(files.map((file) => file.name)));
      const ids = [buildId, ...(await history()).filter((id) => id !== buildId)];
      const kept = ids.slice(0, keep);
      const shared = new Set((await Promise.all(kept.map(namesOf))).flatMap((names) => names ?? []));
      for (const id of ids.slice(keep)) {
        for (const name of (await namesOf(id).catch(() => null)) ?? []) if (!shared.has(name)) await removeName(name);
        await rm(buildPath(id), { force: true });
      }
      await write(historyPath, JSON.stringify(kept));
    },
    async has(buildId) {
      return isBuildId(buildId) && (await namesOf(buildId)) !== null;
    },
    async get(name, encodings) {
      if (!isAssetName(name)) return null;
      for (const encoding of encodings) {
        const body = await readFresh(filePath(name, encoding));
        if (body) return { encoding, body };
      }
      return null;
    },
    async touch(buildId) {
      const names = isBuildId(buildId) ? await namesOf(buildId) : null;
      if (!names) return;
      const at = new Date(now());
      const paths = [
        buildPath(buildId),
        ...names.flatMap((name) => (Object.keys(SUFFIX) as AssetEncoding[]).map((e) => filePath(name, e))),
      ];
      await Promise.all(paths.map((path) => utimes(path, at, at).catch(() => undefined)));
    },
    builds: history,
    async close() {},
  };
}
