/** /readyz of the gateway: its three upstreams and the build store. */
import type { CheckState, ReadinessCheck } from '../../../lib/service.js';
import type { BuildStore } from '../../../lib/build-store/index.js';
import type { CurrentBuild } from './current-build.js';

async function healthy(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export interface ReadinessOptions {
  rendererUrl: string;
  imageUrl: string;
  iconsUrl: string;
  timeoutMs: number;
  /** The renderer pages go to now (renderer-choice.ts): an announced one of the current build, or rendererUrl. */
  renderer?: () => string;
}

/**
 * The renderer serves every page, so without it the gateway is down; images and icons only
 * degrade pages. The store only degrades: the gateway keeps the last build it knew.
 */
export function gatewayChecks(options: ReadinessOptions, store: BuildStore, build: CurrentBuild): Record<string, ReadinessCheck> {
  const upstream = (url: string, whenDown: CheckState) => async (): Promise<CheckState> =>
    (await healthy(url, options.timeoutMs)) ? 'ok' : whenDown;
  return {
    renderer: async () => ((await healthy(options.renderer?.() ?? options.rendererUrl, options.timeoutMs)) ? 'ok' : 'down'),
    image: upstream(options.imageUrl, 'degraded'),
    icons: upstream(options.iconsUrl, 'degraded'),
    store: async () => {
      const answered = await Promise.race([
        store.ping().catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(resolve, options.timeoutMs, false).unref()),
      ]);
      if (answered && (!build.storeReachable() || !build.storeHasBuild())) void build.refresh();
      // A store that answers but lost the build (Redis restarted empty) is not 'ok'.
      return answered && build.storeHasBuild() ? 'ok' : 'degraded';
    },
  };
}
