/**
 * The gateway's request path, read top to bottom. Every request goes through these steps in this
 * order, and the first that answers ends it:
 *
 *   1. route rules   a redirect rule, or a page asked for in another spelling, is answered with its
 *                    redirect; every later step and the answer read the request's rules
 *   2. build files   `{prefix}builds/latest.json` and `{prefix}builds/meta/{id}.json`, from the build
 *                    the gateway follows
 *   3. client files  a hashed client file of any kept build, from memory, disk or the asset store
 *   4. render cache  a cached or prerendered page or payload (when RENDER_CACHE is on)
 *   5. proxy         everything else goes upstream by Fastify's routes (proxy.ts): `/_ipx/` to the
 *                    image service, `/api/_nuxt_icon/` to the icons service, the rest to a renderer
 *
 * On the way out, every answer Fastify sends gets, in this order: the security headers, the route
 * rules' headers, `x-cache`. A cache hit written straight to the socket (render-cache/hit-response.ts)
 * carries the same, made once per entry.
 *
 * The steps run in one callback hook: a request that no step needs to wait for (a fresh cache hit,
 * a proxied request) passes with no promise made. What the steps learn about the request is kept
 * in request-state.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { buildFilesStep } from './build-files.js';
import type { CurrentBuild } from './current-build.js';
import type { RenderCache } from './render-cache/render-cache.js';
import { decorateRequestState, stateOf, type GatewayRequestState } from './request-state.js';
import { routeRuleHeaders, routeRulesStep } from './route-rules.js';
import { securityHeaders } from './security-headers.js';
import type { AnswerHeaders, Step } from './step.js';

export interface PipelineParts {
  build: CurrentBuild;
  assetsPrefix: string;
  /** Which URLs are pages, whose spelling the route rules step makes canonical. */
  isPage: (url: string) => boolean;
  /** The client files step (client-assets.ts): it keeps its own memory and counts. */
  clientFiles: Step;
  /** Null when RENDER_CACHE is off. */
  renderCache: RenderCache | null;
}

export function registerPipeline(app: FastifyInstance, parts: PipelineParts): void {
  const steps: Step[] = [
    routeRulesStep(parts.build, parts.isPage),
    buildFilesStep(parts.build, parts.assetsPrefix),
    parts.clientFiles,
    ...(parts.renderCache ? [parts.renderCache.step] : []),
    // 5. The proxy: a request no step answered goes on to Fastify's routes (proxy.ts).
  ];
  const onTheWayOut: AnswerHeaders[] = [securityHeaders, routeRuleHeaders, ...(parts.renderCache ? [parts.renderCache.cacheHeader] : [])];

  decorateRequestState(app);
  app.addHook('onRequest', (request, reply, done) => runSteps(steps, 0, request, reply, stateOf(request), done));
  app.addHook('onSend', (request, reply, payload, done) => {
    const state = stateOf(request);
    for (const add of onTheWayOut) add(request, reply, state);
    done(null, payload);
  });
}

/**
 * Runs `steps` from `from` until one answers; `done` lets Fastify go on (to the proxy) when none
 * did, or takes the error of a step that failed. A step that answered never calls it: its reply
 * is sent, as in any onRequest hook that answers.
 */
function runSteps(
  steps: readonly Step[],
  from: number,
  request: FastifyRequest,
  reply: FastifyReply,
  state: GatewayRequestState,
  done: HookHandlerDoneFunction,
): void {
  for (let i = from; i < steps.length; i++) {
    let answered: boolean | Promise<boolean>;
    try {
      answered = steps[i]!(request, reply, state);
    } catch (error) {
      return done(error as Error);
    }
    if (answered === false) continue;
    if (answered === true) return;
    answered.then(
      (yes) => (yes ? undefined : runSteps(steps, i + 1, request, reply, state, done)),
      (error: unknown) => done(error as Error),
    );
    return;
  }
  done();
}
