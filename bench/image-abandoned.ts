/**
 * Image work nobody waits for (issue 32, item 6): the stack as `npm start` runs it, then N distinct
 * uncached variants at once from one address (127.0.0.2, 127.0.0.3…: one per round, so a round's
 * budget is its own), through the gateway with its usual timeout. Prints the answers per status,
 * what a second address got for one new variant meanwhile, and the image process's CPU seconds
 * while the askers waited and after the last of them had its answer (work for nobody).
 *
 *   npm run bench:image-abandoned            # rounds of 90 and 200 (BENCH_ABANDON_ROUNDS=90,200)
 *   IMAGE_ADDRESS_CONCURRENCY=1000 IMAGE_ADDRESS_BUDGET_MS=100000000 npm run bench:image-abandoned
 *                                            # the same with no budget per address: what aborting alone saves
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { processCpuSeconds } from './support/process-cpu.js';
import { startLaunchedStack, type LaunchedStack } from './support/launched-stack.js';

const ROUNDS = (process.env.BENCH_ABANDON_ROUNDS ?? '90,200').split(',').map(Number);
const SOURCES = ['css', 'docker', 'git', 'http', 'nodejs', 'postgresql', 'shell'].map((name) => `/images/categories/${name}.jpg`);

/**
 * Variant `i` of round `round`, distinct within and across rounds: the largest legal size (4096x2304
 * from a 1600x900 source; a height alone is not snapped to the width list) at its own quality, with a
 * background colour of the round's own (unused by the transform, but part of the variant's key).
 */
function variant(round: number, i: number): string {
  const quality = 1 + Math.floor(i / SOURCES.length);
  return `/_ipx/h_2304&enlarge&q_${quality}&b_${round.toString(16).padStart(6, '0')}${SOURCES[i % SOURCES.length]}`;
}

interface Answer {
  status: number | string;
  ms: number;
}

async function ask(agent: Agent, url: string): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await request(url, { dispatcher: agent, headers: { accept: 'image/webp,*/*' } });
    await response.body.arrayBuffer();
    return { status: response.statusCode, ms: performance.now() - started };
  } catch (error) {
    return { status: (error as { code?: string }).code ?? 'error', ms: performance.now() - started };
  }
}

/** Transforms running and waiting in the image service, from its metrics port. */
async function queueDepth(stack: LaunchedStack): Promise<number> {
  const metricsUrl = new URL(stack.serviceUrl('image'));
  metricsUrl.port = String(Number(metricsUrl.port) + 1000);
  const text = await (await fetch(`${metricsUrl.origin}/metrics`)).text();
  const depth = /^image_queue_depth\{[^}]*\} (\d+)$/gm;
  const samples = [...text.matchAll(depth)];
  if (samples.length === 0) throw new Error('no image_queue_depth on the image service\'s metrics port');
  return samples.reduce((sum, m) => sum + Number(m[1]), 0);
}

function tally(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const { status } of answers) counts.set(String(status), (counts.get(String(status)) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} × ${status}`).join(', ');
}

async function round(stack: LaunchedStack, index: number, count: number): Promise<void> {
  const attacker = new Agent({ localAddress: `127.0.0.${2 + index}`, connections: null });
  const other = new Agent({ localAddress: '127.0.0.250' });
  const pid = stack.pids.image;
  const cpuStart = processCpuSeconds(pid);
  const asked = Array.from({ length: count }, (_, i) => ask(attacker, `${stack.url}${variant(index, i)}`));
  // Another visitor wants one new variant a second into the burst.
  await sleep(1000);
  const bystander = await ask(other, `${stack.url}${variant(index + 100, 0)}`);
  const answers = await Promise.all(asked);
  const cpuAnswered = processCpuSeconds(pid);
  const started = performance.now();
  while ((await queueDepth(stack)) > 0) await sleep(100);
  const cpuIdle = processCpuSeconds(pid);
  const slowest = Math.max(...answers.map((a) => a.ms));
  console.log(`\n${count} distinct variants at once from 127.0.0.${2 + index}:`);
  console.log(`  answers: ${tally(answers)} (the last after ${(slowest / 1000).toFixed(1)} s)`);
  console.log(`  another address, one new variant meanwhile: ${bystander.status} in ${Math.round(bystander.ms)} ms`);
  console.log(`  image CPU while they waited: ${(cpuAnswered - cpuStart).toFixed(1)} s`);
  console.log(
    `  image CPU after the last answer: ${(cpuIdle - cpuAnswered).toFixed(1)} s (queue idle ${((performance.now() - started) / 1000).toFixed(1)} s later)`,
  );
  await Promise.all([attacker.close(), other.close()]);
}

async function main(): Promise<void> {
  const stack = await startLaunchedStack({ NODE_ENV: 'production', LOG_LEVEL: 'warn' });
  try {
    for (const [index, count] of ROUNDS.entries()) await round(stack, index, count);
  } finally {
    await stack.stop();
  }
}

await main();
