/**
 * What every service shares at the HTTP level: the request id, one access line per request,
 * `/healthz` and `/readyz`, the one error shape, metrics and the trace context (lib/telemetry, served
 * on METRICS_PORT by `listen`), and a graceful shutdown on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyServerOptions,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { REQUEST_ID_HEADER } from '../config/constants.js';
import { createError, isAnnouncedUnavailable, renderStaticErrorPage, toErrorBody, toHttpError, wantsJson } from '../errors/errors.js';
import { errorCacheHeaders } from './wants-json.js';
import { originForm } from './origin-form.js';
import { LIB_ERRORS } from '../errors/error-codes.js';
import { allowedMethods } from './allowed-methods.js';
import { answerConnect, clientErrorHandler } from './parser-refusals.js';
import { clientBrokeRequest, registerRequestGuards, type RequestPhase } from './request-guards.js';
import { FASTIFY_LISTENING } from '../logging/logger.js';
import { lazyRequestLogger } from '../logging/request-logger.js';
import { jsonLineWriterOf } from '../logging/json-lines.js';
import { resolveMetricsPort, startMetricsServer } from '../telemetry/metrics.js';
import { enableOtlpExport, registerTelemetry, type TelemetryPhases } from '../telemetry/request-telemetry.js';
import { startIdleGc } from '../process/idle-gc.js';
import { HEALTH_PATH, READY_PATH, isHealthPath } from '../url-space/health.js';

export type CheckState = 'ok' | 'degraded' | 'down';
/** A check's state with why (shown under `reasons` in /readyz). */
export interface CheckResult {
  state: CheckState;
  reason?: string | undefined;
}
/** A readiness check: 'down' fails /readyz, 'degraded' reports but keeps serving. */
export type ReadinessCheck = () => Promise<CheckState | CheckResult> | CheckState | CheckResult;

export interface ServiceOptions {
  name: string;
  logger: FastifyBaseLogger;
  production: boolean;
  checks?: Record<string, ReadinessCheck>;
  /** Extra fields for the access line, such as the upstream the gateway chose. */
  accessFields?: (request: FastifyRequest, reply: FastifyReply) => Record<string, unknown>;
  /** Passed to Fastify: body limit, timeouts and so on. */
  bodyLimit?: number;
  /** ASSETS_PREFIX, so metrics count assets as assets (packages/shared/src/telemetry/metrics.ts routeKindOf). */
  assetsPrefix?: string;
  /** Headers for answers written without Fastify (packages/shared/src/http/parser-refusals.ts): the gateway's security headers. */
  edgeHeaders?: Record<string, string>;
  /** Whether a `/*` route serves this path for the 405-or-404 choice (packages/shared/src/http/allowed-methods.ts). */
  catchAllServes?: (path: string) => boolean;
  /** Whose X-Forwarded-* make `request.ip`, `protocol` and `host` (packages/shared/src/http/trust-proxy.ts); unset: nobody's. */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** How long a client may take over each part of a request; unset: Node's and Fastify's defaults. */
  timeouts?: ConnectionTimeouts;
  /**
   * Set: the service's own per-request phases are handed over instead of added as hooks, and the
   * caller runs them in its one list of phases (the gateway's pipeline.ts), in the order given.
   */
  handOverPhases?: (phases: ServicePhases) => void;
}

/** What createService does on every request, as phases a caller may run itself (`handOverPhases`). */
export interface ServicePhases {
  /** The span and route kind at the start, metrics at the finish (lib/telemetry); null under the benchmark's switch. */
  telemetry: TelemetryPhases | null;
  /** The request id on the request and its answer, and an access line for a client that leaves first. */
  requestId: (request: FastifyRequest, reply: FastifyReply) => void;
  /** What Node's parser lets through and this service refuses (packages/shared/src/http/request-guards.ts). */
  guards: RequestPhase;
  /** On the way out: `connection: close` once the app is closing. */
  closing: (reply: FastifyReply) => void;
  /** Once answered: the access line. */
  accessLine: (request: FastifyRequest, reply: FastifyReply) => void;
}

/** The edge's clocks on a client (the gateway's config sets them; docs/decisions/http-edge.md). */
export interface ConnectionTimeouts {
  /** From the connection's first byte to the end of the request's headers. */
  headersMs: number;
  /** From the first byte to the end of the whole request, body included. */
  requestMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
}

/**
 * Node's server options for the headers clock (Fastify sets the request and keep-alive ones). Node checks the headers and request clocks on a
 * sweep, not per socket: every quarter of the shorter one, so a timeout fires within 125 % of it.
 */
function timeoutOptions(timeouts: ConnectionTimeouts | undefined): {
  http: { headersTimeout?: number; connectionsCheckingInterval?: number };
} {
  if (!timeouts) return { http: {} };
  return {
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: Math.max(250, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** True in production: no stack traces or internal messages leave the server. */
    production: boolean;
    /** True once the app is closing: answers end their connection (`connection: close`). */
    closing: boolean;
  }
  interface FastifyRequest {
    /** True once the request's access line is written: a client's early close and the answer's end would each write one. */
    accessLogged: boolean;
  }
}

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A client's request id is kept when it is short and plain, otherwise a new one is made. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}

type LogAccess = (request: FastifyRequest, reply: FastifyReply, status: number) => void;

export function createService(options: ServiceOptions): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  // The access line needs the app's health, the app needs the access line: bound once both exist.
  const late: { logAccess: LogAccess; app?: FastifyInstance } = { logAccess: () => undefined };
  const app = fastifyFor(options, bodyLimit, late);
  late.app = app;
  app.decorate('production', options.production);
  const handOver = options.handOverPhases;
  let telemetry: TelemetryPhases | null = null;
  const telemetryOptions = { service: options.name, ...(options.assetsPrefix ? { assetsPrefix: options.assetsPrefix } : {}) };
  registerTelemetry(app, telemetryOptions, handOver ? (phases) => (telemetry = phases) : undefined);
  const idleGc = startIdleGc();
  app.addHook('onClose', async () => idleGc.stop());
  // A field rather than a WeakSet of requests: an entry there costs every collection some work.
  app.decorateRequest('accessLogged', false);
  const health = { wasReady: false };
  const logAccess = accessLogger(options, () => idleGc.touch(), health);
  late.logAccess = logAccess;

  const requestId = requestIdPhase(logAccess);
  // A callback hook, not an async one: it runs on every request, cache hits included.
  if (!handOver)
    app.addHook('onRequest', (request, reply, done) => {
      requestId(request, reply);
      done();
    });
  let guards: RequestPhase | null = null;
  registerRequestGuards(app, bodyLimit, handOver ? (phase) => (guards = phase) : undefined);
  const closing = closingPhase(app);
  const accessLine = (request: FastifyRequest, reply: FastifyReply) => logAccess(request, reply, reply.statusCode);
  if (handOver) handOver({ telemetry, requestId, guards: guards!, closing, accessLine });
  else registerReplyHooks(app, closing, accessLine);

  registerHealth(app, options.checks ?? {}, health);
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler(notFoundHandler(app, options.catchAllServes));
  return app;
}

/** The Fastify instance with the service's options: logging, ids, limits, timeouts and the answers Node's parser and Fastify's router give. */
function fastifyFor(options: ServiceOptions, bodyLimit: number, late: { logAccess: LogAccess; app?: FastifyInstance }): FastifyInstance {
  const clientErrorOptions = {
    ...(options.edgeHeaders ? { edgeHeaders: options.edgeHeaders } : {}),
    allowOf: (path: string) => (late.app ? allowedMethods(late.app, path, options.catchAllServes) : []),
  };
  const app = Fastify({
    loggerInstance: options.logger,
    // Fastify's two lines per request give way to the one access line below.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: (req) => requestIdFrom(req.headers[REQUEST_ID_HEADER]),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    bodyLimit,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // An absolute-form request line (`GET http://evil.example/x`) is served from its path: its
    // authority never reaches a route, a redirect's Location or an upstream (packages/shared/src/http/origin-form.ts).
    rewriteUrl: (req) => originForm(req.url ?? '/'),
    ...(options.timeouts ? { requestTimeout: options.timeouts.requestMs, keepAliveTimeout: options.timeouts.keepAliveMs } : {}),
    // A request without Host is refused in the error shape (packages/shared/src/http/request-guards.ts), not with Node's empty 400.
    http: { requireHostHeader: false, ...timeoutOptions(options.timeouts).http },
    clientErrorHandler: clientErrorHandler(options.logger, clientErrorOptions),
    // Bad percent-encoding in the path and the like: Fastify's own JSON body otherwise, even for browsers.
    frameworkErrors: (error, request, reply) => {
      // No hook runs for these: the request id, edge headers and access line are added here.
      reply.header(REQUEST_ID_HEADER, request.id);
      if (options.edgeHeaders) reply.headers(options.edgeHeaders);
      reply.raw.once('finish', () => late.logAccess(request, reply, reply.statusCode));
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      sendError(request, reply, createError(tooLong ? LIB_ERRORS.LIB_URL_TOO_LONG() : LIB_ERRORS.LIB_MALFORMED_URL()));
    },
  });
  app.server.on('connect', answerConnect(options.logger, clientErrorOptions));
  return app;
}

/** One access line per request, at most. `touch` tells the idle collector a request came (a health probe is none). */
function accessLogger(options: ServiceOptions, touch: () => void, ready: { readonly wasReady: boolean }): LogAccess {
  // The access line's fields are the request line, status and timings, never a credential (a URL
  // is logged as sent): redaction would only walk every line for nothing. The request id is
  // written as Fastify's request logger binds it.
  const accessLog = options.logger.child({}, { redact: [] });
  // The same line without pino's generic serialiser, when the logger has a writer for it (logging/json-lines.ts).
  const writeLine = jsonLineWriterOf(options.logger);
  return (request, reply, status) => {
    if (request.accessLogged) return;
    request.accessLogged = true;
    const health = isHealthPath(request.url);
    if (!health) touch();
    const fields = {
      reqId: request.id,
      method: request.method,
      path: request.url,
      status,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      traceId: request.trace?.traceId,
      ...options.accessFields?.(request, reply),
    };
    // Orchestrators probe health every few seconds: a passing probe is not worth an info line, and
    // neither is a failing one before the service was first ready (its start: the launcher and
    // Kubernetes probe until it is). A failing probe once it has been ready is news.
    const probe = health && (status < 400 || !ready.wasReady);
    const level = probe ? 'debug' : 'info';
    if (writeLine) writeLine(level, fields, 'request');
    else accessLog[level](fields, 'request');
  };
}

function requestIdPhase(logAccess: LogAccess): ServicePhases['requestId'] {
  return (request, reply) => {
    // Upstreams see the id the gateway made; logs of every service then line up.
    request.headers[REQUEST_ID_HEADER] = request.id;
    reply.header(REQUEST_ID_HEADER, request.id);
    // Fastify's onResponse waits for 'finish'; a client that leaves first still gets its line,
    // with nginx's 499 (client closed request) unless an error status was already chosen.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished && (clientBrokeRequest(request.raw, reply.raw) || answerGone(reply)))
        logAccess(request, reply, reply.statusCode >= 400 ? reply.statusCode : 499);
    });
  };
}

/**
 * Once closing, an answer still in flight ends its connection: Fastify closes only the idle ones,
 * and a kept-alive socket would hold the shutdown until the client's own timeout (an upstream's
 * `keep-alive: timeout=5`, which the gateway used to copy, hid this).
 */
function closingPhase(app: FastifyInstance): ServicePhases['closing'] {
  app.decorate('closing', false);
  app.addHook('preClose', async () => {
    app.closing = true;
  });
  return (reply) => {
    if (app.closing) reply.header('connection', 'close');
  };
}

/** A 404, or a 405 with Allow (204 to OPTIONS) when a route serves the path by another method. */
function notFoundHandler(app: FastifyInstance, catchAllServes: ServiceOptions['catchAllServes']) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(app, path, catchAllServes);
    // A route of this very method that gave up (a static file that is not there) is a plain 404.
    if (allowed.length === 0 || allowed.includes(request.method))
      return sendError(request, reply, createError(LIB_ERRORS.LIB_ROUTE_NOT_FOUND(path)));
    const allow = { allow: allowed.join(', ') };
    if (request.method === 'OPTIONS') return reply.code(204).headers(allow).send();
    return sendError(request, reply, createError({ ...LIB_ERRORS.LIB_METHOD_NOT_ALLOWED(request.method, allowed), headers: allow }));
  };
}

function registerReplyHooks(app: FastifyInstance, closing: ServicePhases['closing'], accessLine: ServicePhases['accessLine']): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    closing(reply);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    accessLine(request, reply);
    done();
  });
}

/** `/healthz` and `/readyz`; `health.wasReady` is set once `/readyz` has answered other than down. */
function registerHealth(app: FastifyInstance, checks: Record<string, ReadinessCheck>, health: { wasReady: boolean }): void {
  app.get(HEALTH_PATH, async () => ({ status: 'ok' }));
  app.get(READY_PATH, async (_request, reply) => {
    const entries = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          const result = await check();
          return [name, typeof result === 'string' ? { state: result } : result] as const;
        } catch (error) {
          return [name, { state: 'down', reason: error instanceof Error ? error.message : String(error) } as CheckResult] as const;
        }
      }),
    );
    const results = Object.fromEntries(entries.map(([name, result]) => [name, result.state]));
    const reasons = Object.fromEntries(entries.flatMap(([name, result]) => (result.reason ? [[name, result.reason]] : [])));
    const states = Object.values(results);
    const status = states.includes('down') ? 'down' : states.includes('degraded') ? 'degraded' : 'ready';
    if (status !== 'down') health.wasReady = true;
    reply.code(status === 'down' ? 503 : 200).header('cache-control', 'no-store');
    return Object.keys(reasons).length > 0 ? { status, checks: results, reasons } : { status, checks: results };
  });
}

/**
 * The answer's stream was closed before a header went out: its connection is gone (the client
 * left, or the connection was ended under it), so an error met afterwards (the upstream body
 * aborted) is nobody's fault here and nobody can read it.
 */
function answerGone(reply: FastifyReply): boolean {
  return reply.raw.destroyed && !reply.raw.headersSent;
}

/** Adds a name to the answer's Vary, keeping what is there (the renderer's `cookie`). */
export function appendVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  const names =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((part) => part.trim().toLowerCase());
  if (!names.includes(name)) reply.header('vary', names.length > 0 ? `${names.join(', ')}, ${name}` : name);
}

/** Answers with the one error shape and the error's own headers: JSON for JSON clients, the static error page otherwise. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if ((clientBrokeRequest(request.raw, reply.raw) || answerGone(reply)) && toHttpError(error).statusCode >= 500) {
    // Nobody is left to read the answer; the access line still says what happened.
    request.log.info({ code: (error as { code?: unknown } | null)?.code }, 'client broke its request');
    error = createError(LIB_ERRORS.LIB_REQUEST_INCOMPLETE());
  }
  const http = toHttpError(error);
  // Fastify's own errors (bad JSON, body too large) carry their 4xx status; anything else is a 500.
  // A 503 with Retry-After is an unavailability announced on purpose (a store away, a service
  // starting): its access line says it, with no ERROR and no stack.
  if (http.statusCode >= 500 && !isAnnouncedUnavailable(http)) request.log.error({ err: error }, 'request failed');
  const body = toErrorBody(error, request.url, !request.server.production);
  reply.code(body.statusCode);
  const cacheHeaders = errorCacheHeaders(request.url, body.statusCode);
  reply.header('cache-control', cacheHeaders['cache-control']);
  if (cacheHeaders.vary) appendVary(reply, cacheHeaders.vary);
  reply.headers(http.headers);
  if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send(body);
  return reply.type('text/html; charset=utf-8').send(renderStaticErrorPage(body));
}

export interface ListenOptions {
  port: number;
  host: string;
  shutdownTimeoutMs: number;
  /** The Prometheus listener; unset: port + 1000, 0: off. */
  metricsPort?: number | undefined;
  /** Set: spans are exported over OTLP/HTTP to this collector. */
  otlpEndpoint?: string | undefined;
  /**
   * Runs on SIGTERM before the listener closes, while requests are still taken (the renderer
   * withdraws from the store and waits for the gateways to notice). Counts against the timeout.
   */
  beforeClose?: () => Promise<void>;
}

/** The listen options of a service config (packages/shared/src/config/service-config.ts serviceFields). */
export function listenOptionsOf(config: {
  PORT: number;
  HOST: string;
  SHUTDOWN_TIMEOUT_MS: number;
  METRICS_PORT?: number | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}): ListenOptions {
  return {
    port: config.PORT,
    host: config.HOST,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    metricsPort: config.METRICS_PORT,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}

/**
 * `app.listen`, without Fastify's "Server listening at …" line (packages/shared/src/logging/logger.ts FASTIFY_LISTENING).
 * Fastify writes it with `app.log.info` and has no option against it; that one method is wrapped
 * for the listen alone, so no log call of the running service pays for a check (a per-call pino
 * hook would have). Request loggers are children with methods of their own: untouched.
 */
export async function listenQuietly(app: FastifyInstance, port: number, host: string): Promise<void> {
  const log = app.log as FastifyBaseLogger & { info: (...args: unknown[]) => void };
  const info = log.info;
  log.info = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'string' && args[0].startsWith(FASTIFY_LISTENING)) return;
    info.apply(this, args);
  };
  try {
    await app.listen({ port, host });
  } finally {
    log.info = info;
  }
}

/**
 * Listens, and on SIGTERM or SIGINT stops taking connections, lets in-flight requests finish and
 * exits 0; if draining takes longer than the timeout it exits 1 so the operator knows.
 */
export async function listen(app: FastifyInstance, options: ListenOptions): Promise<void> {
  if (options.otlpEndpoint) await enableOtlpExport(app, options.otlpEndpoint);
  const metricsPort = resolveMetricsPort(options.port, options.metricsPort);
  // Metrics first: a taken metrics port stops the service before it takes traffic.
  if (metricsPort > 0) await startMetricsServer(app.telemetry.metrics, metricsPort, options.host);
  await listenQuietly(app, options.port, options.host);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, options.shutdownTimeoutMs);
    timer.unref();
    const before = options.beforeClose?.().catch((error: unknown) => app.log.warn({ err: error }, 'before-close step failed'));
    Promise.resolve(before)
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
