/**
 * Prometheus metrics for every service (prom-client): one registry per service instance, the HTTP
 * request count and duration by route kind and status, `build_info`, the process's default metrics,
 * and the separate listener that serves `/metrics` on METRICS_PORT, never on the public port.
 * Naming and label choices: docs/decisions/observability.md.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DEFAULT_ASSETS_PREFIX } from '../url-space/assets-prefix.js';
import { RequestStats, registerRequestMetrics } from './request-stats.js';
import { BUILDS_DIR } from '../url-space/build-files.js';
import { HEALTH_PATH, READY_PATH } from '../url-space/health.js';
import { isIconPath } from '../url-space/icons.js';
import { isImagePath } from '../url-space/images.js';
import { PAYLOAD_SUFFIX } from '../url-space/payload.js';

/** What a request was for: the only route label, so the label set stays bounded whatever the path. */
export type RouteKind = 'page' | 'payload' | 'asset' | 'build' | 'image' | 'icon' | 'api' | 'file' | 'health';

/** OpenTelemetry's http.server.request.duration buckets, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
const SLASH = 0x2f;

/**
 * The kind of a request from its path alone, the same at every service, so the gateway's and the
 * renderer's figures for one kind line up. Never the raw path: that label would be unbounded.
 */
export function routeKindOf(url: string, assetsPrefix: string = DEFAULT_ASSETS_PREFIX): RouteKind {
  // Runs on every request of every service: tests on `url` up to its query, no slices or strings
  // built. A prefix without `?` matches the url exactly when it matches the path.
  const q = url.indexOf('?');
  const end = q === -1 ? url.length : q;
  if ((end === HEALTH_PATH.length && url.startsWith(HEALTH_PATH)) || (end === READY_PATH.length && url.startsWith(READY_PATH)))
    return 'health';
  if (url.startsWith(assetsPrefix)) return url.startsWith(BUILDS_DIR, assetsPrefix.length) ? 'build' : 'asset';
  if (isImagePath(url)) return 'image';
  if (isIconPath(url)) return 'icon';
  if (url.startsWith('/api') && (end === 4 || url.charCodeAt(4) === SLASH)) return 'api';
  if (url.endsWith(PAYLOAD_SUFFIX, end)) return 'payload';
  // The last segment has a file extension: `/favicon.ico`, `/robots.txt`.
  if (url.lastIndexOf('.', end - 1) > url.lastIndexOf('/', end - 1)) return 'file';
  return 'page';
}

/** `GET`, `POST`…; anything else (a client can send any token) is `other`. */
export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : 'other';
}

export function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100) - 1] ?? 'other';
}

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Records one answered request; called once per request by createService. */
  observeRequest(method: string, kind: RouteKind, status: number, seconds: number): void;
  /** `build_info{build_id}` = 1 for the build this process serves: a fixed id, or read at each scrape (the gateway follows the store). */
  setBuildId(buildId: string | (() => string | undefined)): void;
  /** Event-loop delay, heap, RSS, GC and friends; collected on scrape. Only processes that serve metrics pay for it. */
  collectDefaults(): void;
}

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const requests = new RequestStats(HTTP_DURATION_BUCKETS);
  registerRequestMetrics(registry, requests, { method: methodLabel, statusClass });
  // Image and icons serve no build of the site: their build_id stays `none`.
  let buildId: () => string | undefined = () => 'none';
  new Gauge({
    name: 'build_info',
    help: 'Always 1; the labels say which build this process serves and which Node.js runs it.',
    labelNames: ['build_id', 'node_version'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.set({ build_id: buildId() ?? 'none', node_version: process.versions.node }, 1);
    },
  });
  let defaults = false;
  return {
    registry,
    // Node's HTTP parser accepts a fixed set of methods, so keying by the raw one stays bounded;
    // unknown ones become `other` at scrape time.
    observeRequest(method, kind, status, seconds) {
      requests.record(method, kind, status, seconds);
    },
    setBuildId(id) {
      buildId = typeof id === 'string' ? () => id : id;
    },
    collectDefaults() {
      if (defaults) return;
      defaults = true;
      collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
    },
  };
}

type ScrapedValue<L extends string> = number | Array<[Record<L, string>, number]>;
interface ScrapedConfig<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}
type Labels<L extends string> = Partial<Record<L, string | number>>;

/**
 * The options of a metric filled from `read()` at scrape time: `start` clears what the last scrape
 * left, then each value goes to `write`.
 */
function scrapedOptions<L extends string, M extends Counter<L> | Gauge<L>>(
  registry: Registry,
  config: ScrapedConfig<L>,
  read: () => ScrapedValue<L>,
  write: (metric: M, value: number, labels?: Labels<L>) => void,
  start: (metric: M) => void = () => undefined,
) {
  return {
    ...config,
    labelNames: config.labelNames ?? [],
    registers: [registry],
    collect(this: M) {
      const value = read();
      start(this);
      if (typeof value === 'number') write(this, value);
      else for (const [labels, n] of value) write(this, n, labels as Labels<L>);
    },
  };
}

/**
 * A counter whose value is kept elsewhere (a service's own stats object) and read at scrape time:
 * the hot path pays nothing, Prometheus still sees a counter it can `rate()`.
 */
export function counterFrom<L extends string>(registry: Registry, config: ScrapedConfig<L>, read: () => ScrapedValue<L>): Counter<L> {
  return new Counter<L>(
    scrapedOptions<L, Counter<L>>(
      registry,
      config,
      read,
      (counter, value, labels) => (labels ? counter.inc(labels, value) : counter.inc(value)),
      // The totals are set afresh on each scrape.
      (counter) => counter.reset(),
    ),
  );
}

/** A gauge read at scrape time, such as a queue's depth or a cache's size. */
export function gaugeFrom<L extends string>(registry: Registry, config: ScrapedConfig<L>, read: () => ScrapedValue<L>): Gauge<L> {
  return new Gauge<L>(
    scrapedOptions<L, Gauge<L>>(registry, config, read, (gauge, value, labels) => (labels ? gauge.set(labels, value) : gauge.set(value))),
  );
}

/** METRICS_PORT when set; otherwise the service's port + 1000, or off when the port is chosen by the system (0). */
export function resolveMetricsPort(port: number, metricsPort: number | undefined): number {
  if (metricsPort !== undefined) return metricsPort;
  return port === 0 ? 0 : port + 1000;
}

/**
 * The metrics listener: `GET /metrics` in Prometheus text format, 404 for anything else. A plain
 * node:http server so a busy or closing app never delays a scrape, and nothing of the app is exposed.
 */
export async function startMetricsServer(metrics: ServiceMetrics, port: number, host: string): Promise<Server> {
  metrics.collectDefaults();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics listener serves /metrics only\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  // Scrapes come every few seconds on a kept-alive connection; closing must not wait for it.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function serverPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}
