/**
 * The gateway's whole request path, in one list read top to bottom. Every request goes through
 * these phases in this order, and the first that answers ends it:
 *
 *   1. telemetry     the span and route kind (lib/telemetry)
 *   2. request id    on the request (upstreams see it) and on the answer (packages/shared/src/http/service.ts)
 *   3. guards        what Node's parser lets through and the edge refuses (packages/shared/src/http/request-guards.ts)
 *   4. state         the URL split once into path and query (request-state.ts): nothing after
 *                    reads `request.url` for its path again
 *      first build   just after start, until a build is known, a request waits for it a moment
 *                    (first-build.ts), so it gets the build's rules below
 *   5. route rules   a page asked for in another spelling, or a redirect rule, is answered with its
 *                    redirect; every later phase and the answer read the request's rules
 *   6. build files   `{prefix}builds/latest.json` and `{prefix}builds/meta/{id}.json`
 *   7. client files  a hashed client file of any kept build, from memory, disk or the asset store
 *   8. render cache  a cached or prerendered page or payload (when RENDER_CACHE is on); a hit is
 *                    written straight to the socket (render-cache/hit-response.ts) with what the
 *                    reply hooks below would add, made once per entry
 *   9. page proxy    a GET or HEAD for the renderer goes to it from here (page-proxy.ts) and is
 *                    answered through the reply as below
 *  10. proxy         everything else goes upstream by Fastify's routes (proxy.ts)
 *
 * On the way out (`ANSWER_HOOKS`), every answer Fastify sends gets, in this order: `connection:
 * close` once closing, the security headers, the route rules' headers (each kind's own,
 * packages/shared/src/route-rules/kinds.ts, the same function a hit uses), `x-cache`, a signed-in
 * visitor's change (personal-parts-memory.ts: their kept parts end, a new version cookie); then compression
 * (compression.ts, the last onSend). Once sent (`FINISH`): metrics and the span's end, then the
 * access line.
 *
 * All phases run in one callback hook: a request that no phase needs to wait for (a fresh cache
 * hit, a proxied request) passes with no promise made.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ServicePhases } from '@tern/shared/http/service';
import { buildFilesStep } from './build-files.js';
import { registerCompression } from './compression.js';
import type { CurrentBuild } from './current-build.js';
import type { RenderCache } from './render-cache/render-cache.js';
import { decorateRequestState, stateOf, type GatewayRequestState } from './request-state.js';
import { routeRuleHeaders, routeRulesStep } from './route-rules.js';
import { securityHeaders } from './security-headers.js';
import type { AnswerHeaders, Step } from './step.js';

export interface PipelineParts {
  build: CurrentBuild;
  assetsPrefix: string;
  /** Which paths are pages (not assets, the API or images): the canonical spelling and the render cache are theirs. */
  isPage: (path: string) => boolean;
  /** The client files step (client-assets.ts): it keeps its own memory and counts. */
  clientFiles: Step;
  /** Null when RENDER_CACHE is off. */
  renderCache: RenderCache | null;
  /** What every service does per request (packages/shared/src/http/service.ts), handed over to run in this list. */
  service: ServicePhases;
  /** Pages to the renderer without Fastify's route (page-proxy.ts). */
  pageProxy: Step;
  /** Waits a moment for the first build, just after start (first-build.ts). */
  firstBuild: Step;
}

/** A phase of packages/shared/src/http/service.ts as a step: 'answered' ends the request, an error is answered by the error handler. */
function serviceStep(phase: ServicePhases['guards']): Step {
  return (request, reply) => {
    const outcome = phase(request, reply);
    if (outcome instanceof Error) throw outcome;
    return outcome === 'answered';
  };
}

/** The phases, in order (the list above). */
function phasesOf(parts: PipelineParts): Step[] {
  const { service } = parts;
  const telemetry = service.telemetry;
  return [
    ...(telemetry ? [(request: FastifyRequest) => (telemetry.start(request), false)] : []),
    (request, reply) => (service.requestId(request, reply), false),
    serviceStep(service.guards),
    // 4. The request state is made by runSteps before the first phase: every phase is handed it.
    parts.firstBuild,
    routeRulesStep(parts.build),
    buildFilesStep(parts.build, parts.assetsPrefix),
    parts.clientFiles,
    ...(parts.renderCache ? [parts.renderCache.step] : []),
    parts.pageProxy,
    // 10. The proxy: a request no phase answered goes on to Fastify's routes (proxy.ts).
  ];
}

/** What every answer Fastify sends gets on its way out, in order (a hit written straight carries the same). */
function answerHooksOf(parts: PipelineParts): AnswerHeaders[] {
  return [
    (_request, reply) => parts.service.closing(reply),
    securityHeaders,
    routeRuleHeaders,
    ...(parts.renderCache ? [parts.renderCache.cacheHeader, parts.renderCache.personalChange] : []),
  ];
}

/** What runs once an answer is sent (or its client left), in order. */
function finishOf(parts: PipelineParts): ((request: FastifyRequest, reply: FastifyReply) => void)[] {
  const { telemetry, accessLine } = parts.service;
  return [...(telemetry ? [telemetry.finish] : []), accessLine];
}

export async function registerPipeline(app: FastifyInstance, parts: PipelineParts): Promise<void> {
  const phases = phasesOf(parts);
  const answerHooks = answerHooksOf(parts);
  const finish = finishOf(parts);
  const { isPage } = parts;

  decorateRequestState(app);
  app.addHook('onRequest', (request, reply, done) => runSteps(phases, 0, request, reply, stateOf(request, isPage), done));
  app.addHook('onSend', (request, reply, payload, done) => {
    const state = stateOf(request, isPage);
    for (const add of answerHooks) add(request, reply, state);
    done(null, payload);
  });
  // The last onSend: compression sees the answer with every header above.
  await registerCompression(app);
  app.addHook('onResponse', (request, reply, done) => {
    for (const run of finish) run(request, reply);
    done();
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
