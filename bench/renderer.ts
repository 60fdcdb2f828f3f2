/**
 * `npm run bench:renderer`: the category page (/category/git) rendered per request, every server in
 * a process of its own, all measured in one interleaved run (every target once per round, the order
 * rotated each round; BENCH_ROUNDS x BENCH_SECONDS, each measured run after BENCH_WARMUP_SECONDS of
 * the same load, not counted):
 *   - the bare limit: React renderToString of the same tree and document (bench/renderer-bare.ts);
 *   - the renderer asked directly, the stack as `npm start` runs it (production, LOG_LEVEL=warn);
 *   - the same page through the gateway of a second stack with RENDER_CACHE=false (every request a
 *     proxied render: a signed-in visitor of this page is served from the cache with their parts,
 *     docs/decisions/personal-holes.md), and the anonymous cached hit for comparison, both as fast
 *     as it answers and at the rate the proxied pages came (measured before the rounds): a process
 *     that answers a request at a time pays its event loop's turn for each, one that is saturated
 *     shares it among many, so only the same rate compares what the gateway does for each;
 *   - Nuxt 4 rendering the same content per request (`../shared/peers/nuxt-dynamic`, issue 35);
 *   - with BENCH_NEXT=1, the Next.js 16 fixture under `next start` (issue 4).
 * CPU per request is each server process's own CPU time (/proc schedstat) over the requests it
 * answered; the load generator (this process) never counts. Goals (issue 35 item 5): the renderer's
 * CPU per render <= 0.5x Nuxt's; the gateway's CPU for a proxied page <= 0.5 ms (or <= 2x a hit).
 * Ratios are medians of the per-round ratios.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from '@tern/shared/config/paths';
import { startNuxtApp, type PeerApp } from './renderer-nuxt.js';
import { startNextApp } from './renderer-next.js';
import { startLaunchedStack } from './support/launched-stack.js';
import { load } from './support/load.js';
import { cpuSecondsOf, machineBusySeconds } from './support/process-cpu.js';
import { median } from './support/rounds.js';

const PATH = '/category/git';
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const headers = { accept: 'text/html', 'user-agent': PERSON };
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** The processes whose CPU is counted, by name. */
  pids: Record<string, number>;
  /** Rendered for each request: an answer from the render cache is not the figure asked for. */
  rendered?: boolean;
  /** Requests a second; none: as fast as the server answers. */
  rate?: number;
}

interface Run {
  rps: number;
  /** CPU ms per request, per counted process. */
  cpuMs: Record<string, number>;
  othersCores: number;
  errors: number;
}

/** The bare renderToString server in a process of its own (production React, as the renderer runs). */
async function startBare(): Promise<{ url: string; pid: number; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, [join(projectRoot, 'dist', 'node', 'bench', 'renderer-bare.js'), PATH], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.split(' ')[1]!));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

async function measure(target: Target): Promise<Run> {
  const loadOptions = { headers: target.headers, ...(target.rate ? { rate: target.rate } : {}) };
  if (warmupSeconds > 0) await load(`${target.label}, warm-up`, target.url, { ...loadOptions, durationSeconds: warmupSeconds });
  const names = Object.keys(target.pids);
  const before = names.map((name) => cpuSecondsOf(target.pids[name]!));
  const machineBefore = machineBusySeconds();
  const selfBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await load(target.label, target.url, { ...loadOptions, durationSeconds: seconds });
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = names.map((name, i) => cpuSecondsOf(target.pids[name]!) - before[i]!);
  const self = process.cpuUsage(selfBefore);
  const others = machineBusySeconds() - machineBefore - used.reduce((a, b) => a + b, 0) - (self.user + self.system) / 1e6;
  const requests = Math.max(1, result.total);
  return {
    rps: result.requestsPerSecond,
    cpuMs: Object.fromEntries(names.map((name, i) => [name, (used[i]! * 1000) / requests])),
    othersCores: Math.max(0, others) / wallSeconds,
    errors: result.errors + result.non2xx,
  };
}

async function check(target: Target): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${target.label}: ${target.url} answered ${response.status}`);
  const cache = response.headers.get('x-cache');
  if (target.rendered && (cache === 'HIT' || cache === 'STALE')) throw new Error(`${target.label}: x-cache ${cache}, not a render`);
  console.log(`${target.label}: ${bytes} bytes, x-cache ${response.headers.get('x-cache') ?? '-'}`);
}

function report(targets: Target[], runs: Run[][]): void {
  const range = (values: number[], digits: number) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (median ${median(values).toFixed(digits)})`;
  console.table(
    targets.map((target, i) => ({
      run: target.label,
      'req/s': range(
        runs[i]!.map((r) => r.rps),
        0,
      ),
      ...Object.fromEntries(
        Object.keys(target.pids).map((name) => [
          `${name} CPU ms/req`,
          range(
            runs[i]!.map((r) => r.cpuMs[name]!),
            2,
          ),
        ]),
      ),
      errors: runs[i]!.reduce((sum, r) => sum + r.errors, 0),
    })),
  );
  const noise = runs.flat().map((r) => r.othersCores);
  console.log(`noise: the rest of the machine used ${range(noise, 2)} cores of 2 during the runs`);
}

/** The median over rounds of a per-round quotient of two runs' figures. */
function perRound(runs: Run[][], a: number, b: number, figure: (run: Run) => number): number {
  return median(runs[a]!.map((run, round) => figure(run) / figure(runs[b]![round]!)));
}

function verdict(name: string, value: number, goal: string, met: boolean | null): void {
  console.log(`${name}: ${value.toFixed(3)}${met === null ? '' : ` (goal ${goal}: ${met ? 'met' : 'NOT met'})`}`);
}

const stack = await startLaunchedStack({ NODE_ENV: 'production', LOG_LEVEL: 'warn' });
const uncached = await startLaunchedStack({ NODE_ENV: 'production', LOG_LEVEL: 'warn', RENDER_CACHE: 'false' });
const bare = await startBare();
const peers: PeerApp[] = [];
try {
  peers.push(await startNuxtApp());
} catch (error) {
  console.log(`Nuxt part skipped: ${(error as Error).message}`);
}
if (process.env.BENCH_NEXT === '1') {
  try {
    peers.push(await startNextApp());
  } catch (error) {
    console.log(`Next.js part skipped: ${(error as Error).message}`);
  }
}
try {
  const { pids } = stack;
  const targets: Target[] = [
    { label: 'bare renderToString', url: `${bare.url}${PATH}`, headers, pids: { bare: bare.pid } },
    { label: 'renderer direct', url: `${stack.serviceUrl('renderer')}${PATH}`, headers, pids: { renderer: pids.renderer } },
    {
      label: 'through the gateway, proxied',
      url: `${uncached.url}${PATH}`,
      headers,
      pids: { gateway: uncached.pids.gateway, renderer: uncached.pids.renderer },
      rendered: true,
    },
    { label: 'through the gateway, cached hit', url: `${stack.url}${PATH}`, headers, pids: { gateway: pids.gateway } },
    ...peers.map((peer) => ({ label: peer.label, url: `${peer.url}${PATH}`, headers, pids: { peer: peer.pid } })),
  ];
  for (const target of targets) await check(target);
  // The rate proxied pages come at, for a hit measured at the same rate (the last target).
  const calibration = await load('proxied rate', targets[2]!.url, { durationSeconds: 3, headers });
  const proxiedRate = Math.max(1, Math.round(calibration.requestsPerSecond));
  targets.push({ ...targets[3]!, label: `through the gateway, cached hit at ${proxiedRate} req/s`, rate: proxiedRate });
  const runs: Run[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      runs[index]!.push(await measure(targets[index]!));
    }
  }
  report(targets, runs);
  const [BARE, DIRECT, PROXIED, HIT, NUXT] = [0, 1, 2, 3, 4];
  const HIT_AT_RATE = targets.length - 1;
  console.log(`ratios: median of ${rounds} interleaved rounds of ${seconds} s`);
  const cpu = (name: string) => (run: Run) => run.cpuMs[name]!;
  verdict(
    'renderer direct / bare renderToString, req/s',
    perRound(runs, DIRECT, BARE, (r) => r.rps),
    '>= 0.5',
    perRound(runs, DIRECT, BARE, (r) => r.rps) >= 0.5,
  );
  verdict(
    'renderer CPU per render / bare renderToString CPU',
    median(runs[DIRECT]!.map((r, i) => r.cpuMs.renderer! / runs[BARE]![i]!.cpuMs.bare!)),
    '',
    null,
  );
  const gatewayMs = median(runs[PROXIED]!.map(cpu('gateway')));
  const hitRatio = median(runs[PROXIED]!.map((r, i) => r.cpuMs.gateway! / runs[HIT]![i]!.cpuMs.gateway!));
  verdict('gateway CPU ms per proxied page', gatewayMs, '<= 0.5 ms', gatewayMs <= 0.5);
  verdict('gateway CPU per proxied page / per cached hit', hitRatio, '<= 2', hitRatio <= 2);
  const sameRate = median(runs[PROXIED]!.map((r, i) => r.cpuMs.gateway! / runs[HIT_AT_RATE]![i]!.cpuMs.gateway!));
  verdict('gateway CPU per proxied page / per cached hit at the same rate', sameRate, '<= 2', sameRate <= 2);
  if (peers[0] && targets[NUXT]) {
    const nuxt = median(runs[DIRECT]!.map((r, i) => r.cpuMs.renderer! / runs[NUXT]![i]!.cpuMs.peer!));
    verdict(`renderer CPU per render / ${peers[0].label} CPU per render`, nuxt, '<= 0.5', nuxt <= 0.5);
    verdict(
      `renderer direct / ${peers[0].label}, req/s`,
      perRound(runs, DIRECT, NUXT, (r) => r.rps),
      '',
      null,
    );
  }
} finally {
  for (const peer of peers) peer.stop();
  bare.stop();
  await stack.stop();
  await uncached.stop();
}
