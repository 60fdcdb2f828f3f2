/**
 * The embedded build store: JSON files under the build output, so `npm start` needs no Redis.
 * Writes are atomic (temp file + rename); other processes notice changes by polling.
 * Files: `current.json`, `meta/{id}.json`, `history.json` (ids whose metas are kept, latest
 * publish first), `order.json` ({ id, timestamp } by first publication, newest first).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILDS_KEPT,
  BUILDS_REMEMBERED,
  isBuildId,
  type BuildInfo,
  type BuildMeta,
  type BuildStore,
  type PublishOutcome,
  type RendererEntry,
} from './types.js';

export interface FileBuildStoreOptions {
  dir: string;
  keep?: number;
  pollIntervalMs?: number;
  /** The clock renderer announcements expire by (tests inject one). */
  now?: () => number;
}

export function createFileBuildStore(options: FileBuildStoreOptions): BuildStore {
  const { dir } = options;
  const keep = options.keep ?? BUILDS_KEPT;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const now = options.now ?? Date.now;
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

  const orderPath = join(dir, 'order.json');
  const readOrder = async () => (await readJson<BuildInfo[]>(orderPath)) ?? [];

  // One publish at a time per process; between processes the last rename wins (the file store
  // serves one machine, where renderers start one at a time under the launcher).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function publish(meta: BuildMeta): Promise<PublishOutcome> {
    await mkdir(join(dir, 'meta'), { recursive: true });
    await writeJson(metaPath(meta.id), meta);
    const order = await readOrder();
    const known = order.find((build) => build.id === meta.id);
    // New id, or a later build of the same content: a publication. The same build again is not.
    if (!known || known.timestamp < meta.timestamp) {
      const next = [{ id: meta.id, timestamp: meta.timestamp }, ...order.filter((build) => build.id !== meta.id)];
      await writeJson(orderPath, next.slice(0, BUILDS_REMEMBERED));
    }
    const newest = (await readOrder())[0]?.id;
    const isCurrent = newest === meta.id;
    if (isCurrent) await writeJson(join(dir, 'current.json'), { id: meta.id, timestamp: meta.timestamp });
    const currentId = isCurrent ? meta.id : (await current())?.id;
    const history = ((await readJson<string[]>(join(dir, 'history.json'))) ?? []).filter((id) => id !== meta.id);
    history.unshift(meta.id);
    await Promise.all(
      history
        .slice(keep)
        .filter((id) => id !== currentId)
        .map((id) => rm(metaPath(id), { force: true })),
    );
    await writeJson(join(dir, 'history.json'), history.slice(0, keep));
    return isCurrent ? 'current' : 'superseded';
  }

  return {
    kind: 'file',
    publish(meta) {
      if (!isBuildId(meta.id)) return Promise.reject(new Error(`invalid build id: ${JSON.stringify(meta.id)}`));
      return serial(() => publish(meta));
    },
    promote(id) {
      return serial(async () => {
        const meta = isBuildId(id) ? await readJson<BuildMeta>(metaPath(id)) : null;
        if (!meta) return false;
        const order = await readOrder();
        const known = order.find((build) => build.id === id) ?? { id, timestamp: meta.timestamp };
        await writeJson(orderPath, [known, ...order.filter((build) => build.id !== id)]);
        await writeJson(join(dir, 'current.json'), { id, timestamp: meta.timestamp });
        return true;
      });
    },
    async builds() {
      const order = await readOrder();
      return Promise.all(order.map(async (build) => ({ ...build, kept: (await readJson(metaPath(build.id))) !== null })));
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
      await writeJson(rendererPath(entry), { buildId: entry.buildId, url: entry.url, expires: now() + ttlMs });
    },
    async withdrawRenderer(entry) {
      await rm(rendererPath(entry), { force: true });
    },
    async renderers() {
      const names = await readdir(renderersDir).catch(() => [] as string[]);
      const at = now();
      const found: RendererEntry[] = [];
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const entry = await readJson<RendererEntry & { expires: number }>(join(renderersDir, name)).catch(() => null);
        if (!entry) continue;
        if (entry.expires <= at) await rm(join(renderersDir, name), { force: true });
        else found.push({ buildId: entry.buildId, url: entry.url });
      }
      return found;
    },
    async ping() {
      await mkdir(dir, { recursive: true });
      return true;
    },
    unavailableReason: () => null,
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
    },
  };
}
