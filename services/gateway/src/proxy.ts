/**
 * The three upstreams: `/_ipx/**` to the image service, `/api/_nuxt_icon/**` to the icons
 * service, everything else to the renderer. The gateway sets X-Forwarded-* itself (forwarded.ts).
 */
import proxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { LevelWithSilent } from 'pino';
import { Agent, type Dispatcher, type Pool } from 'undici';
import { ICONS_BASE } from '@tern/shared/url-space/icons';
import { IMAGE_BASE } from '@tern/shared/url-space/images';
import { forwardedHeaders } from './forwarded.js';
import { withoutHopByHop } from './hop-by-hop.js';
import { classifyTransportError } from './transport-errors.js';
import { onUpstreamError } from './upstream-errors.js';
import { wholeBodyFirst, type BodyPace } from './whole-body.js';
import { anotherRenderer } from './renderer-choice.js';
import type { RendererStartup } from './renderer-startup.js';
import { abortablePool, visitorLeft, watchVisitor, withVisitorSignal } from './visitor-abort.js';

export type UpstreamName = 'renderer' | 'image' | 'icons';

export interface ProxyOptions {
  rendererUrl: string;
  imageUrl: string;
  iconsUrl: string;
  timeoutMs: number;
  /** Requests under it are for assets, which upstreams serve pre-compressed. */
  assetsPrefix: string;
  /** The renderer for a request URL (renderer-choice.ts); RENDERER_URL when absent. */
  rendererFor?: (url: string) => string;
  /** Told when the renderer chosen for a request refused the connection. */
  rendererRefused?: (url: string) => void;
  /** Bodies are read whole, within these, before any upstream is asked (whole-body.ts). */
  bodyPace: BodyPace;
  /** Told of every renderer answer; until the first, a refused renderer is one still starting. */
  rendererStartup?: RendererStartup;
  /** The renderer's connections, shared with the pages that go there from the request path (page-proxy.ts). */
  rendererPool: Dispatcher;
}

/** The connections to one upstream: kept alive, one request at a time on each, at most 128. */
export function upstreamPoolOptions(timeoutMs: number): Pool.Options {
  return { connections: 128, pipelining: 1, keepAliveTimeout: 60_000, connect: { timeout: timeoutMs } };
}

/** The renderer's pool (any renderer: an Agent keeps one pool per origin). */
export function createRendererPool(timeoutMs: number): Agent {
  return new Agent(upstreamPoolOptions(timeoutMs));
}

/** Which upstream a request's route goes to (`config.upstream` below); undefined for the gateway's own routes. */
export function routeUpstream(request: FastifyRequest): UpstreamName | undefined {
  return (request.routeOptions.config as { upstream?: UpstreamName } | undefined)?.upstream;
}

const LEVELS: readonly LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** `error`, or the app's own level when that is quieter still (a silent logger stays silent). */
function atLeastError(level: string): LevelWithSilent {
  const own = LEVELS.indexOf(level as LevelWithSilent);
  return own > LEVELS.indexOf('error') ? LEVELS[own]! : 'error';
}

export async function registerProxies(app: FastifyInstance, options: ProxyOptions): Promise<void> {
  // Which renderer each request went to, for telling the choice about a refused connection.
  const chosen = new WeakMap<object, string>();
  // Requests already sent to a second renderer after the first failed: never a third.
  const retried = new WeakSet<object>();
  const preHandler = wholeBodyFirst(options.bodyPace);
  const common = (upstream: UpstreamName, url: string, choose?: (url: string) => string): FastifyHttpProxyOptions => {
    const startup = upstream === 'renderer' ? options.rendererStartup : undefined;
    const replyWithUpstreamError = onUpstreamError(upstream, startup);
    const replyOptions: NonNullable<FastifyHttpProxyOptions['replyOptions']> = {
      ...(choose
        ? {
            getUpstream: (request: { url: string }) => {
              const target = choose(request.url);
              chosen.set(request, target);
              return target;
            },
          }
        : {}),
      timeout: options.timeoutMs,
      // reply-from types request and reply for HTTP/2 too; the gateway only serves HTTP/1.
      rewriteRequestHeaders: (request, headers) =>
        forwardedHeaders(
          request as FastifyRequest,
          headers as IncomingHttpHeaders,
          (request as FastifyRequest).url.startsWith(options.assetsPrefix),
        ),
      // Upstream connection headers describe the gateway's pooled socket, not the visitor's.
      rewriteHeaders: (headers) => {
        startup?.answered();
        return withoutHopByHop(headers);
      },
      onError: (reply, { error }) => {
        const request = reply.request as FastifyRequest;
        // Its visitor left and the upstream request was ended for it: nobody to answer.
        if (visitorLeft(request)) return;
        const target = chosen.get(request);
        const transport = classifyTransportError(error);
        if (target && transport.unsent) options.rendererRefused?.(target);
        // A renderer that died (one of several replicas) costs no visitor an error: a GET or HEAD
        // that never got an answer goes once to another renderer, when there is one.
        const next = target && choose && !retried.has(request) && !reply.sent ? anotherRenderer(choose, request.url, target) : undefined;
        if (next && (request.method === 'GET' || request.method === 'HEAD') && transport.retryable) {
          retried.add(request);
          chosen.set(request, next);
          void reply.from(request.url.split('?', 1)[0], { ...replyOptions, getUpstream: () => next });
          return;
        }
        replyWithUpstreamError(reply as FastifyReply, error);
      },
      // No retry storms: never retry a 503, retry an idempotent request once on a reset keep-alive socket.
      retryDelay: ({ err, req, attempt }) =>
        attempt === 0 && err && classifyTransportError(err).reason === 'reset' && (req.method === 'GET' || req.method === 'HEAD')
          ? 10
          : null,
    };
    return {
      // With a chooser the origin must be left empty: reply-from pins undici to a fixed upstream's origin.
      upstream: choose ? '' : url,
      config: { upstream },
      preHandler,
      // The gateway writes one access line per request itself; reply-from would add two more.
      disableRequestLogging: true,
      undici: upstream === 'renderer' ? options.rendererPool : upstreamPoolOptions(options.timeoutMs),
      replyOptions,
    };
  };
  // reply-from warns with the whole stack of every upstream failure: the proxies' routes log at
  // error only, and upstream-errors.ts writes the one line for it (the error handler the ERROR of a 5xx).
  const logLevel = atLeastError(app.log.level);
  const image = endedWithItsVisitor(app, common('image', options.imageUrl), options.imageUrl, preHandler);
  await app.register(proxy, { ...image, prefix: IMAGE_BASE, rewritePrefix: IMAGE_BASE, logLevel });
  await app.register(proxy, { ...common('icons', options.iconsUrl), prefix: ICONS_BASE, rewritePrefix: ICONS_BASE, logLevel });
  await app.register(proxy, { ...common('renderer', options.rendererUrl, options.rendererFor), logLevel });
}

/**
 * An image request ends upstream when its visitor leaves (visitor-abort.ts): the image service then
 * drops the transform it queued for it, where it would otherwise run it for nobody.
 */
function endedWithItsVisitor(
  app: FastifyInstance,
  options: FastifyHttpProxyOptions,
  url: string,
  readBody: ReturnType<typeof wholeBodyFirst>,
): FastifyHttpProxyOptions {
  const pool = abortablePool(url, options.undici as Pool.Options);
  app.addHook('onClose', () => pool.destroy());
  const rewrite = options.replyOptions!.rewriteRequestHeaders!;
  return {
    ...options,
    undici: pool,
    // The visitor is watched from the start, then the body (if any) is read whole as for every upstream.
    preHandler: (request, reply, done) => watchVisitor(request, reply, () => readBody(request, reply, done)),
    replyOptions: {
      ...options.replyOptions,
      rewriteRequestHeaders: (request, headers) => withVisitorSignal(request as FastifyRequest, rewrite(request, headers)),
    },
  };
}
