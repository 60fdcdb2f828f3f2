/**
 * Keeps a build published: when the store lost it (Redis restarted empty, the folder was wiped)
 * the renderer publishes it again. Another build that is current is left alone: a newer renderer
 * may have published it. Design: docs/decisions/availability.md.
 */
import type { BuildMeta, BuildStore } from './types.js';

/** Publishes `meta` when the store has no current build or lost the current one's meta. */
export async function republishIfLost(store: BuildStore, meta: BuildMeta): Promise<boolean> {
  const current = await store.current();
  if (current && (current.id !== meta.id || (await store.meta(meta.id)))) return false;
  await store.publish(meta);
  return true;
}

export interface KeepPublishedOptions {
  intervalMs: number;
  onRepublished(): void;
  onError(error: unknown): void;
}

/** Checks every `intervalMs`; returns a function that stops it. */
export function keepPublished(store: BuildStore, meta: BuildMeta, options: KeepPublishedOptions): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    republishIfLost(store, meta)
      .then((republished) => republished && options.onRepublished(), options.onError)
      .finally(() => (running = false));
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
