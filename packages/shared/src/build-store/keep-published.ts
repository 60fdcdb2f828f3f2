/**
 * Publishes a renderer's build and keeps it published, whatever state the store is in:
 * - at start it tries at once and then every `intervalMs` until the store answers (a Redis that is
 *   not up yet, refuses or hangs never stops the renderer: it serves meanwhile);
 * - once published, when the store lost it (Redis restarted empty, the folder was wiped) it
 *   publishes it again. Another build that is current is left alone: a newer renderer published it.
 * - a build the store reports superseded (a later one was published) is never pushed again, so an
 *   old renderer cannot roll a deploy back, even into a store that was emptied.
 * Design: docs/decisions/availability.md and skew-protection.md.
 */
import type { BuildMeta, BuildStore, PublishOutcome } from './types.js';

/** Publishes `meta` when the store has no current build or lost the current one's meta. */
export async function republishIfLost(store: BuildStore, meta: BuildMeta): Promise<boolean> {
  const current = await store.current();
  if (current && (current.id !== meta.id || (await store.meta(meta.id)))) return false;
  return (await store.publish(meta)) === 'current';
}

export interface KeepPublishedOptions {
  intervalMs: number;
  /** The first publish that the store answered. */
  onPublished(outcome: PublishOutcome): void;
  onRepublished(): void;
  /** A later build became current: this one is only served to its own tabs from now on. */
  onSuperseded?(current: string): void;
  onError(error: unknown): void;
  /** After every check, answered or not (tests wait on it). */
  onChecked?(): void;
}

/** Starts at once, then checks every `intervalMs`; returns a function that stops it. */
export function keepPublished(store: BuildStore, meta: BuildMeta, options: KeepPublishedOptions): () => void {
  let state: 'pending' | 'kept' | 'superseded' = 'pending';
  let running = false;

  async function step(): Promise<void> {
    if (state === 'pending') {
      const outcome = await store.publish(meta);
      state = outcome === 'current' ? 'kept' : 'superseded';
      options.onPublished(outcome);
      return;
    }
    const current = await store.current();
    // Current again: an operator promoted it (a rollback on purpose), so it is kept from now on.
    if (current?.id === meta.id) state = 'kept';
    else if (current && state === 'kept') {
      state = 'superseded';
      options.onSuperseded?.(current.id);
    }
    if (state === 'kept' && (await republishIfLost(store, meta))) options.onRepublished();
  }

  const tick = () => {
    if (running) return;
    running = true;
    step()
      .catch(options.onError)
      .finally(() => {
        running = false;
        options.onChecked?.();
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
