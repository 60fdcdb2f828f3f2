/**
 * /readyz of the gateway: ready means "can serve" (docs/decisions/availability.md, "Ready means
 * can serve"). Each upstream and the build store that does not answer makes the gateway
 * `degraded`, with its reason, and it stays in its Service: it still serves cached and prerendered
 * pages, client files and build files on its own, and images and icons while their services run.
 * It is unready (503) only when it can serve nothing: no renderer, no image or icon service, and no
 * page of its own.
 */
import type { CheckResult, ReadinessCheck } from '@tern/shared/http/service';
import type { BuildStore } from '@tern/shared/build-store';
import type { CurrentBuild } from './current-build.js';
import { HEALTH_PATH } from '@tern/shared/url-space/health';

/** Null when `{url}/healthz` answers 200 in time; otherwise why not, in the OS's or the upstream's words. */
export async function upstreamProblem(url: string, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(`${url}${HEALTH_PATH}`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? null : `${url}${HEALTH_PATH} answered ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if ((error as Error).name === 'TimeoutError') return `${url}${HEALTH_PATH} did not answer within ${timeoutMs} ms`;
    return `${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
  }
}

export interface ReadinessOptions {
  rendererUrl: string;
  imageUrl: string;
  iconsUrl: string;
  timeoutMs: number;
  /** The renderer pages go to now (renderer-choice.ts): an announced one of the current build, or rendererUrl. */
  renderer?: () => string;
  /** True when the gateway holds pages it can serve without the renderer (render cache, prerendered pages). */
  hasOwnPages?: () => boolean | Promise<boolean>;
}

/** The answers of one /readyz, shared by its checks so each upstream is asked once. */
function sharedProbe<T>(probe: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= probe().finally(() => setTimeout(() => (pending = null), 0));
    return pending;
  };
}

export function gatewayChecks(options: ReadinessOptions, store: BuildStore, build: CurrentBuild): Record<string, ReadinessCheck> {
  const upstreams = sharedProbe(async () => {
    const [renderer, image, icons] = await Promise.all([
      upstreamProblem(options.renderer?.() ?? options.rendererUrl, options.timeoutMs),
      upstreamProblem(options.imageUrl, options.timeoutMs),
      upstreamProblem(options.iconsUrl, options.timeoutMs),
    ]);
    return { renderer, image, icons };
  });
  const upstream = (name: 'renderer' | 'image' | 'icons') => async (): Promise<CheckResult> => {
    const problem = (await upstreams())[name];
    return problem ? { state: 'degraded', reason: problem } : { state: 'ok' };
  };
  return {
    renderer: upstream('renderer'),
    image: upstream('image'),
    icons: upstream('icons'),
    store: async (): Promise<CheckResult> => {
      const answered = await Promise.race([
        store.ping().catch(() => false),
        new Promise<boolean>((resolve) => setTimeout(resolve, options.timeoutMs, false).unref()),
      ]);
      if (answered && (!build.storeReachable() || !build.storeHasBuild())) void build.refresh();
      const kept = build.info() ? `; serving build ${build.info()!.id}, the last it knew` : '';
      if (!answered) return { state: 'degraded', reason: `${store.unavailableReason() ?? 'the build store does not answer'}${kept}` };
      // A store that answers but lost the build (Redis restarted empty) is not 'ok'.
      if (!build.storeHasBuild()) return { state: 'degraded', reason: `the build store holds no current build${kept}` };
      return { state: 'ok' };
    },
    // The one check that can make the gateway unready: nothing at all to serve.
    serving: async (): Promise<CheckResult> => {
      const { renderer, image, icons } = await upstreams();
      if (!renderer || !image || !icons) return { state: 'ok' };
      if (await options.hasOwnPages?.()) return { state: 'ok', reason: 'only pages the gateway holds itself' };
      return { state: 'down', reason: 'no renderer, image or icon service answers, and no page is cached or prerendered' };
    },
  };
}
