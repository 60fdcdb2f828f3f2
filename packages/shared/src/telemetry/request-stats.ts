/**
 * The per-request figures every service records: kept in plain numbers on the hot path and handed
 * to prom-client only when scraped. prom-client's own `inc`/`observe` build a labels object, hash
 * it into a string and allocate a closure on every call; on a render-cache hit at the gateway that
 * was most of what metrics cost (docs/decisions/observability.md, "CPU cost").
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** One line of the text format, as prom-client's metrics hand them to the registry. */
interface ExposedValue {
  labels: Record<string, string | number>;
  /** The series' labels; the registry writes them after `labels` (Histogram's own order). */
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

/** One method, route kind and exact status: a count, and its durations by bucket. */
export interface RequestSeries {
  method: string;
  route: string;
  status: number;
  count: number;
  sum: number;
  /** Not cumulative: index i counts durations in (bucket i-1, bucket i]; the last is over the top bucket. */
  buckets: Float64Array;
}

export class RequestStats {
  // Nested maps keyed by the values themselves: no key string is built per request.
  private readonly byMethod = new Map<string, Map<string, Map<number, RequestSeries>>>();

  constructor(readonly upperBounds: readonly number[]) {}

  record(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.byMethod.get(method);
    if (byRoute === undefined) this.byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) {
      series = { method, route, status, count: 0, sum: 0, buckets: new Float64Array(this.upperBounds.length + 1) };
      byStatus.set(status, series);
    }
    series.count += 1;
    series.sum += seconds;
    const bounds = this.upperBounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    series.buckets[i]! += 1;
  }

  *series(): Generator<RequestSeries> {
    for (const byRoute of this.byMethod.values()) for (const byStatus of byRoute.values()) yield* byStatus.values();
  }

  reset(): void {
    this.byMethod.clear();
  }
}

/** One histogram series to expose: its labels, non-cumulative bucket counts, sum and count. */
export interface HistogramSeries<L extends string> {
  labels: Record<L, string>;
  buckets: ArrayLike<number>;
  sum: number;
  count: number;
}

/**
 * A prom-client Histogram whose values come from `read` at scrape time instead of `observe`. The
 * output is what Histogram itself produces (`_bucket` with `le`, cumulative, `+Inf`, `_sum`,
 * `_count`); packages/shared/src/telemetry/request-stats.test.ts checks it against a plain Histogram fed the same values.
 */
export class CollectedHistogram<L extends string> extends Histogram<L> {
  private readonly bounds: readonly number[];
  private readonly metricName: string;

  constructor(
    config: { name: string; help: string; labelNames: readonly L[]; buckets: number[]; registers: Registry[] },
    private readonly read: () => Iterable<HistogramSeries<L>>,
  ) {
    super(config);
    this.bounds = config.buckets;
    this.metricName = config.name;
  }

  // prom-client types a histogram's values without its `le` label; Histogram's own are the same shape.
  override async get(): ReturnType<Histogram<L>['get']> {
    const data = await this.getForPromString();
    const values = data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    return { ...data, values } as unknown as Awaited<ReturnType<Histogram<L>['get']>>;
  }

  /** What the registry reads when it writes the text format. */
  async getForPromString() {
    const values: ExposedValue[] = [];
    const bucket = `${this.metricName}_bucket`;
    for (const series of this.read()) {
      const shared = series.labels;
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += series.buckets[i]!;
        values.push({ labels: { le: bound }, sharedLabels: shared, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: shared, value: series.count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: shared, value: series.sum, metricName: `${this.metricName}_sum` });
      values.push({ labels: {}, sharedLabels: shared, value: series.count, metricName: `${this.metricName}_count` });
    }
    const self = this as unknown as { help: string; type: string; aggregator: string };
    return { name: this.metricName, help: self.help, type: self.type, values, aggregator: self.aggregator };
  }
}

/** Registers the request counter and duration histogram of `stats`, labelled for Prometheus. */
export function registerRequestMetrics(
  registry: Registry,
  stats: RequestStats,
  labels: { method(method: string): string; statusClass(status: number): string },
): void {
  new Counter({
    name: 'http_server_requests_total',
    help: 'HTTP requests answered, by method, route kind and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of stats.series()) this.inc({ method: labels.method(s.method), route: s.route, status: String(s.status) }, s.count);
    },
  });
  new CollectedHistogram(
    {
      name: 'http_server_request_duration_seconds',
      help: 'Time from the request to the end of the answer, by method, route kind and status class.',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: [...stats.upperBounds],
      registers: [registry],
    },
    () => {
      // Statuses of one class, and methods that map to `other`, become one series.
      const merged = new Map<string, HistogramSeries<'method' | 'route' | 'status_class'>>();
      for (const s of stats.series()) {
        const series = { method: labels.method(s.method), route: s.route, status_class: labels.statusClass(s.status) };
        const key = `${series.method} ${series.route} ${series.status_class}`;
        let into = merged.get(key);
        if (into === undefined) {
          into = { labels: series, buckets: new Float64Array(s.buckets.length), sum: 0, count: 0 };
          merged.set(key, into);
        }
        const buckets = into.buckets as Float64Array;
        s.buckets.forEach((n, i) => (buckets[i]! += n));
        into.sum += s.sum;
        into.count += s.count;
      }
      return merged.values();
    },
  );
}
