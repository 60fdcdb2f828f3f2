/**
 * What keeps a build reachable while builds overlap (docs/decisions/skew-protection.md):
 * - its hashed client files in the shared asset store, so gateways serve them to tabs still on
 *   this build after its renderers are gone (published at start, again if the store lost them,
 *   touched so they outlive the TTL while the build runs);
 * - this renderer announced under its own address, so gateways send this build's payloads (and,
 *   while it is current, its pages) here; withdrawn first thing on SIGTERM.
 */
import type { FastifyBaseLogger } from 'fastify';
import { readClientAssets, type AssetStore, type BuildStore, type RendererEntry } from '@tern/shared/build-store';

export interface BuildPresenceOptions {
  buildId: string;
  clientDir: string;
  assets: AssetStore;
  store: BuildStore;
  /** This renderer's own address; unset: not announced (RENDERER_URL reaches it). */
  advertiseUrl?: string | undefined;
  intervalMs: number;
  /** The asset store's TTL: files are touched well within it. */
  assetTtlMs: number;
  log: FastifyBaseLogger;
}

export interface BuildPresence {
  /** Puts the client files in the store unless they are there already. */
  publishAssets(): Promise<'published' | 'present'>;
  /** Announces this renderer, then keeps announcing (and keeps the files) every interval. */
  start(): Promise<void>;
  /** Stops announcing and takes this renderer out of the store. */
  withdraw(): Promise<void>;
  stop(): void;
}

export function createBuildPresence(options: BuildPresenceOptions): BuildPresence {
  const { assets, store, buildId, log } = options;
  const entry: RendererEntry | null = options.advertiseUrl ? { buildId, url: options.advertiseUrl } : null;
  const ttlMs = options.intervalMs * 3;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let lastTouch = Date.now();

  async function publishAssets(): Promise<'published' | 'present'> {
    if (await assets.has(buildId)) return 'present';
    const files = await readClientAssets(options.clientDir);
    await assets.publish(buildId, files);
    log.info({ buildId, files: files.length, bytes: files.reduce((sum, f) => sum + f.identity.length, 0) }, 'client files published');
    return 'published';
  }

  async function tick(): Promise<void> {
    if (entry) await store.announceRenderer(entry, ttlMs);
    // A store that lost the files (Redis restarted empty) gets them again; a long run keeps them.
    if ((await publishAssets()) === 'present' && Date.now() - lastTouch > options.assetTtlMs / 4) {
      await assets.touch(buildId);
      lastTouch = Date.now();
    }
  }

  return {
    publishAssets,
    async start() {
      // A store that is away at start must not stop the renderer: the next tick announces it.
      if (entry) await store.announceRenderer(entry, ttlMs).catch(() => undefined);
      timer = setInterval(() => {
        if (running) return;
        running = true;
        tick()
          .catch(() => undefined) // the store being away shows in /readyz
          .finally(() => (running = false));
      }, options.intervalMs);
      timer.unref();
    },
    async withdraw() {
      if (timer) clearInterval(timer);
      timer = null;
      if (entry) await store.withdrawRenderer(entry);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
