/**
 * Interleaved load runs: every target once per round, the order rotated each round, so a burst
 * of background load (other builds on a shared 2-core box) spoils one round, not one target.
 * Ratios are the median over rounds of the per-round ratio of two targets.
 */
import { load, type LoadResult } from './load.js';

export interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
  nextPath?: () => string;
}

export interface RoundsResult {
  /** Per target, in the order given: mean req/s over rounds, median latencies, summed errors. */
  results: LoadResult[];
  /** The median over rounds of targets[a] / targets[b] throughput. */
  ratio(a: number, b: number): number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summary(label: string, runs: LoadResult[]): LoadResult {
  return {
    label,
    requestsPerSecond: runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length,
    total: runs.reduce((sum, r) => sum + r.total, 0),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

export async function interleaved(
  targets: Target[],
  options: { rounds: number; seconds: number; headers?: Record<string, string> },
): Promise<RoundsResult> {
  const runs: LoadResult[][] = targets.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      const target = targets[index]!;
      runs[index]!.push(
        await load(target.label, target.url, {
          durationSeconds: options.seconds,
          headers: { ...options.headers, ...target.headers },
          ...(target.nextPath ? { nextPath: target.nextPath } : {}),
        }),
      );
    }
  }
  return {
    results: targets.map((target, i) => summary(target.label, runs[i]!)),
    ratio: (a, b) => median(runs[a]!.map((run, round) => run.requestsPerSecond / runs[b]![round]!.requestsPerSecond)),
  };
}
