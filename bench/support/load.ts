/** A bounded autocannon run against a loopback URL, summarised. */
import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  /** Requests answered in the run (for CPU per request). */
  total: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  /** A new path for every request (e.g. a unique query, to measure cache misses). */
  nextPath?: () => string;
  /** Requests a second across all connections (autocannon's overallRate); none: as fast as answered. */
  rate?: number;
}

export async function load(label: string, url: string, options: LoadOptions = {}): Promise<LoadResult> {
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])[:/]/.test(url)) throw new Error(`benchmarks target loopback only: ${url}`);
  const result = await autocannon({
    url,
    connections: options.connections ?? 20,
    duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 8),
    headers: options.headers ?? {},
    ...(options.rate ? { overallRate: options.rate } : {}),
    ...(options.nextPath
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({ ...request, path: options.nextPath!() }),
            },
          ],
        }
      : {}),
  });
  return {
    label,
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function printTable(results: LoadResult[]): void {
  console.table(
    results.map((r) => ({
      run: r.label,
      'req/s': Math.round(r.requestsPerSecond),
      'p50 ms': r.p50Ms,
      'p99 ms': r.p99Ms,
      errors: r.errors,
      non2xx: r.non2xx,
    })),
  );
}

export function ratio(name: string, value: number, baseline: number, goal?: { atLeast?: number; atMost?: number }): string {
  const r = value / baseline;
  const verdict =
    goal?.atLeast !== undefined
      ? r >= goal.atLeast
        ? ` (goal >= ${goal.atLeast}: met)`
        : ` (goal >= ${goal.atLeast}: NOT met)`
      : goal?.atMost !== undefined
        ? r <= goal.atMost
          ? ` (goal <= ${goal.atMost}: met)`
          : ` (goal <= ${goal.atMost}: NOT met)`
        : '';
  const line = `${name}: ${r.toFixed(3)}${verdict}`;
  console.log(line);
  return line;
}
