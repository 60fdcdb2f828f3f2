/**
 * `npm run bench:home`: the home page through the gateway against the renderer directly, both
 * in one run on the same stack (local processes), so the ratio is the cost of the gateway hop.
 * Interleaved rounds (BENCH_ROUNDS of BENCH_SECONDS each); the ratio is the median over rounds.
 */
import { startLocalStack } from '@tern/cli/local-stack';
import { load, printTable, ratio } from './support/load.js';
import { interleaved } from './support/rounds.js';

const stack = await startLocalStack({ env: { LOG_LEVEL: 'warn' } });
try {
  const headers = { accept: 'text/html' };
  // Warm both paths so neither pays for first-request work.
  await load('warm-up', `${stack.url}/`, { durationSeconds: 2, headers });
  const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
  const seconds = Number(process.env.BENCH_SECONDS ?? 4);
  const run = await interleaved(
    [
      { label: 'renderer direct', url: `${stack.serviceUrl('renderer')}/` },
      { label: 'through the gateway', url: `${stack.url}/` },
    ],
    { rounds, seconds, headers },
  );
  printTable(run.results);
  ratio(`home page, gateway / direct throughput (median of ${rounds} rounds)`, run.ratio(1, 0), 1, { atLeast: 0.75 });
} finally {
  await stack.stop();
}
