/**
 * The embedded build store: JSON files under the build output, so `npm start` needs no Redis.
 * Writes are atomic (temp file + rename); other processes notice changes by polling.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILDS_KEPT, isBuildId, type BuildInfo, type BuildMeta, type BuildStore, type RendererEntry } from './types.js';

export interface FileBuildStoreOptions {
  dir: string;
  keep?: number;
  pollIntervalMs?: number;
}

export function createFileBuildStore(options: FileBuildStoreOptions): BuildStore {
  const { dir } = options;
  const keep = options.keep ?? BUILDS_KEPT;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const metaPath = (id: string) => join(dir, 'meta', `${id}.json`);
  const timers = new Set<NodeJS.Timeout>();
  const renderersDir = join(dir, 'renderers');
  const rendererPath = (entry: RendererEntry) =>
    join(renderersDir, `${createHash('sha256').update(`${entry.buildId} ${entry.url}`).digest('hex').slice(0, 32)}.json`);

  async function readJson<T>(path: string): Promise<T | null> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async function writeJson(path: string, value: unknown): Promise<void> {
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, path);
  }

  async function current(): Promise<BuildInfo | null> {
    return readJson<BuildInfo>(join(dir, 'current.json'));
  }

  return {
    kind: 'file',
    async publish(meta) {
      if (!isBuildId(meta.id)) throw new Error(`invalid build id: ${JSON.stringify(meta.id)}`);
      await mkdir(join(dir, 'meta'), { recursive: true });
      await writeJson(metaPath(meta.id), meta);
      const history = ((await readJson<string[]>(join(dir, 'history.json'))) ?? []).filter((id) => id !== meta.id);
      history.unshift(meta.id);
      await Promise.all(history.slice(keep).map((id) => rm(metaPath(id), { force: true })));
      await writeJson(join(dir, 'history.json'), history.slice(0, keep));
      await writeJson(join(dir, 'current.json'), { id: meta.id, timestamp: meta.timestamp });
    },
    current,
    async meta(id) {
      return isBuildId(id) ? readJson<BuildMeta>(metaPath(id)) : null;
    },
    watch(listener) {
      // undefined until the first read, so the build we start with is not reported as a change.
      let last: string | null | undefined;
      const check = async () => {
        const build = await current().catch(() => undefined);
        if (build === undefined) return;
        const key = build ? `${build.id}:${build.timestamp}` : null;
        if (build && last !== undefined && key !== last) listener(build);
        last = key;
      };
      void check();
      const timer = setInterval(() => void check(), pollIntervalMs);
      timer.unref();
      timers.add(timer);
      return () => {
        clearInterval(timer);
        timers.delete(timer);
      };
    },
    async announceRenderer(entry, ttlMs) {
      if (!isBuildId(entry.buildId)) throw new Error(`invalid build id: ${JSON.stringify(entry.buildId)}`);
      await mkdir(renderersDir, { recursive: true });
      await writeJson(rendererPath(entry), { buildId: entry.buildId, url: entry.url, expires: Date.now() + ttlMs });
    },
    async withdrawRenderer(entry) {
      await rm(rendererPath(entry), { force: true });
    },
    async renderers() {
      const names = await readdir(renderersDir).catch(() => [] as string[]);
      const now = Date.now();
      const found: RendererEntry[] = [];
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const entry = await readJson<RendererEntry & { expires: number }>(join(renderersDir, name)).catch(() => null);
        if (!entry) continue;
        if (entry.expires <= now) await rm(join(renderersDir, name), { force: true });
        else found.push({ buildId: entry.buildId, url: entry.url });
      }
      return found;
    },
    async ping() {
      await mkdir(dir, { recursive: true });
      return true;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
    },
  };
}
