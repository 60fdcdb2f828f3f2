/**
 * `npm run bench:home`: the home page through the gateway against the renderer directly, both
 * in one run on the same stack (local processes), so the ratio is the cost of the gateway hop.
 */
import { startLocalStack } from '../scripts/local-stack.js';
import { load, printTable, ratio } from './support/load.js';

const stack = await startLocalStack({ env: { LOG_LEVEL: 'warn' } });
try {
  const headers = { accept: 'text/html' };
  // Warm both paths so neither pays for first-request work.
  await load('warm-up', `${stack.url}/`, { durationSeconds: 2, headers });
  const direct = await load('renderer direct', `${stack.serviceUrl('renderer')}/`, { headers });
  const gateway = await load('through the gateway', `${stack.url}/`, { headers });
  printTable([direct, gateway]);
  ratio('home page, gateway / direct throughput', gateway.requestsPerSecond, direct.requestsPerSecond);
} finally {
  await stack.stop();
}
