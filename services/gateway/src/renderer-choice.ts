/**
 * Which renderer answers a request while builds overlap (docs/decisions/skew-protection.md): a
 * payload that names its build (`…/_payload.json?{buildId}`) goes to a renderer of that build while
 * one is announced, so a tab on the old build keeps getting its own data; everything else goes to
 * a renderer of the current build, so a full load lands on the new build. With no renderer
 * announced (one renderer, or renderers behind a Service that do not announce) RENDERER_URL.
 */
import { isBuildId } from '@tern/shared/build-store';
import { isPayloadPath } from '@tern/shared/url-space/payload';
import type { CurrentBuild } from './current-build.js';

/** As long as an announcement lives at most (three of the renderers' default 2 s intervals). */
const REFUSED_FOR_MS = 6000;

/** The build a payload URL names (its first query key), or null for anything else. */
export function payloadBuildId(url: string): string | null {
  const at = url.indexOf('?');
  if (at === -1 || !isPayloadPath(url.slice(0, at))) return null;
  const first = url.slice(at + 1).split('&', 1)[0]!;
  return isBuildId(first) ? first : null;
}

export interface RendererChoice {
  /** The base URL of the renderer for this request URL. */
  forUrl(url: string): string;
  /** A renderer of the current build (render-cache fills, readiness). */
  current(): string;
  /** True when some renderer of `buildId` is announced. */
  serves(buildId: string): boolean;
  /**
   * The renderer at `url` refused a connection (it died without withdrawing): leave it out until
   * its announcement expires, so one request fails rather than every request for three intervals.
   */
  refused(url: string): void;
  /** True when `origin` is one of the renderers (the fallback included), for the upstream metrics. */
  isRenderer(origin: string): boolean;
}

export function createRendererChoice(build: CurrentBuild, fallback: string): RendererChoice {
  const turns = new Map<string, number>();
  const fallbackOrigin = new URL(fallback).origin;
  /** Renderers that refused a connection, and until when they are left out. */
  const down = new Map<string, number>();

  /** Round robin over a build's renderers that answer; null when it has none. */
  function pick(buildId: string | undefined): string | null {
    const announced = buildId ? build.renderersOf(buildId) : [];
    const now = Date.now();
    const urls = announced.filter((url) => (down.get(url) ?? 0) <= now);
    if (urls.length === 0) return null;
    const turn = (turns.get(buildId!) ?? 0) + 1;
    turns.set(buildId!, turn % 1_000_000);
    return urls[turn % urls.length]!;
  }

  const current = () => pick(build.info()?.id) ?? fallback;
  return {
    forUrl(url) {
      const named = payloadBuildId(url);
      return (named && pick(named)) ?? current();
    },
    current,
    serves: (buildId) => build.renderersOf(buildId).length > 0,
    refused(url) {
      if (url === fallback) return;
      for (const [known, until] of down) if (until <= Date.now()) down.delete(known);
      down.set(url, Date.now() + REFUSED_FOR_MS);
    },
    isRenderer(origin) {
      if (origin === fallbackOrigin) return true;
      return build.allRenderers().some((url) => new URL(url).origin === origin);
    },
  };
}

/** A renderer other than `avoid`: the choice is a round robin that other requests also turn, so ask a few times. */
export function anotherRenderer(choose: (url: string) => string, url: string, avoid: string): string | undefined {
  for (let i = 0; i < 4; i++) {
    const next = choose(url);
    if (next !== avoid) return next;
  }
  return undefined;
}
