/**
 * A gateway that has just started may not know the site's build yet: the renderer publishes it
 * once it is up, and the gateway reads it a moment later. A request answered in that moment got
 * none of the build's route rules (a redirect answered 404; its headers and cache rules missing).
 * So for a short while after start, a request that no build has yet been applied for waits for
 * the first one (the store asked again every POLL_MS), then goes on with its rules. Past the wait
 * the store evidently has no build (a renderer that never came, a store that is away), and
 * requests go on without rules at once, as /readyz says (`store` degraded). Health paths never wait.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isHealthPath } from '@tern/shared/url-space/health';
import type { CurrentBuild } from './current-build.js';
import type { Step } from './step.js';

const POLL_MS = 50;

export interface FirstBuildOptions {
  /** How long after the gateway starts requests may wait for its first build; 0: never. */
  waitMs: number;
  log: FastifyBaseLogger;
}

export function firstBuildStep(build: CurrentBuild, options: FirstBuildOptions): Step {
  const until = Date.now() + options.waitMs;
  // One wait shared by every request that arrives before the build: one poll, however many wait.
  let waiting: Promise<boolean> | null = null;

  async function waitForBuild(): Promise<boolean> {
    while (build.info() === null && Date.now() < until) {
      await build.refresh();
      if (build.info() === null) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    if (build.info() === null) options.log.warn({ waitedMs: options.waitMs }, 'no build known yet: answering without its route rules');
    // Never answers: the request goes on to the route rules, whichever build there is now.
    return false;
  }

  return (_request, _reply, state) => {
    if (build.info() !== null || Date.now() >= until || isHealthPath(state.path)) return false;
    waiting ??= waitForBuild().finally(() => (waiting = null));
    return waiting;
  };
}
