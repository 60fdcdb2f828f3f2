/**
 * `npm run bench:observability`: what metrics and tracing cost in CPU on the category page
 * (goal: at most 3%). Three variants of the same gateway + renderer processes, side by side:
 *   off     per-request telemetry off, no metrics listener (the baseline);
 *   off-twin a second baseline process: its ratio to `off` is the noise floor of the run;
 *   hooks   per-request metrics and trace ids, but no metrics listener (so no process metrics);
 *   metrics metrics recorded (and served), trace ids made, logged and passed on (the default);
 *   otlp    the same plus every request's spans exported over OTLP/HTTP to a collector here;
 *   metrics-before  with BENCH_BEFORE_DIR (a checkout of earlier code, compiled with `tsc` and given
 *           this tree's dist/client, ssr, content, build): `metrics` as that code did it, so a
 *           change to the telemetry is measured against its predecessor in the same run.
 * Two scenarios: the page rendered every time (render cache off: gateway and renderer work) and
 * the page served from the gateway's render cache (gateway only, so telemetry weighs the most).
 * CPU is read from /proc (schedstat, ns) for the service processes around a fixed number of
 * requests, in interleaved rounds; the figure is the median over rounds of CPU per request against
 * `off`, and against the mean of both baselines. BENCH_ROUNDS and BENCH_REQUESTS change the length;
 * BENCH_SCENARIO=rendered|cached runs one; BENCH_MODES=metrics,... measures only those besides the baselines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { projectRoot } from '@tern/shared/config/paths';
import { findFreeBasePort } from '@tern/cli/ports';
import { waitForOk } from '@tern/cli/services';
import { median } from './support/rounds.js';
import { HEALTH_PATH } from '@tern/shared/url-space/health';

type Mode = 'off' | 'off-twin' | 'hooks' | 'metrics' | 'otlp' | 'metrics-before';
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR;
const ALL_MODES: Mode[] = ['off', 'off-twin', 'hooks', 'metrics', 'otlp', ...(BEFORE_DIR ? (['metrics-before'] as const) : [])];
// BENCH_MODES=hooks,metrics keeps those (and the two baselines, always measured).
const chosen = process.env.BENCH_MODES?.split(',');
const MODES = ALL_MODES.filter((mode) => !chosen || mode === 'off' || mode === 'off-twin' || chosen.includes(mode));
const PAGE = '/category/git';
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const requests = Number(process.env.BENCH_REQUESTS ?? 1500);
const only = process.env.BENCH_SCENARIO;

interface Variant {
  mode: Mode;
  processes: ChildProcess[];
  /** Gateway with the render cache off (every request rendered) and on (served from the cache). */
  rendered: { url: string; pids: number[]; metrics?: string };
  cached: { url: string; pids: number[]; metrics?: string };
  dir: string;
}

/**
 * CPU time of a process in seconds: the on-CPU time of all its threads from the scheduler
 * (/proc/{pid}/task/{tid}/schedstat, nanoseconds), finer than the 10 ms ticks of /proc/{pid}/stat.
 */
async function cpuSeconds(pid: number): Promise<number> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const times = await Promise.all(
    tasks.map((tid) =>
      readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').then(
        (text) => Number(text.split(' ')[0]),
        () => 0,
      ),
    ),
  );
  return times.reduce((sum, ns) => sum + ns, 0) / 1e9;
}

/** Answers OTLP/HTTP exports with 200 after reading them, as a collector would. */
async function startSink(): Promise<{ server: Server; url: string; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, bytes: () => bytes };
}

function spawnService(service: 'gateway' | 'renderer', telemetry: 'on' | 'off', env: NodeJS.ProcessEnv, root = projectRoot): ChildProcess {
  const entry = join(root, 'dist', 'node', 'bench', 'observability-service.js');
  const child = spawn(process.execPath, [entry, service, telemetry], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

async function startVariant(mode: Mode, sinkUrl: string): Promise<Variant> {
  const base = await findFreeBasePort(3);
  const dir = await mkdtemp(join(tmpdir(), `bench-observability-${mode}-`));
  const url = (offset: number) => `http://127.0.0.1:${base + offset}`;
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    BUILD_STORE_DIR: join(dir, 'build-store'),
    CACHE_DIR: join(dir, 'render-cache'),
    RENDERER_URL: url(1),
    IMAGE_URL: url(1),
    ICONS_URL: url(1),
    ...(mode === 'otlp' ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl } : {}),
  };
  delete common.REDIS_URL;
  const telemetry = mode === 'off' || mode === 'off-twin' ? 'off' : 'on';
  const served = mode === 'metrics' || mode === 'otlp' || mode === 'metrics-before';
  const root = mode === 'metrics-before' ? BEFORE_DIR! : projectRoot;
  const metricsPort = (offset: number) => (served ? String(base + 1000 + offset) : '0');
  const renderer = spawnService('renderer', telemetry, { ...common, PORT: String(base + 1), METRICS_PORT: metricsPort(1) }, root);
  await waitForOk(`${url(1)}${HEALTH_PATH}`, 60_000);
  const rendered = spawnService(
    'gateway',
    telemetry,
    {
      ...common,
      PORT: String(base),
      METRICS_PORT: metricsPort(0),
      RENDER_CACHE: 'false',
    },
    root,
  );
  const cached = spawnService(
    'gateway',
    telemetry,
    {
      ...common,
      PORT: String(base + 2),
      METRICS_PORT: metricsPort(2),
      RENDER_CACHE: 'true',
    },
    root,
  );
  await Promise.all([waitForOk(`${url(0)}${PAGE}`, 60_000), waitForOk(`${url(2)}${PAGE}`, 60_000)]);
  const metrics = (offset: number) => (served ? { metrics: `http://127.0.0.1:${base + 1000 + offset}/metrics` } : {});
  return {
    mode,
    processes: [renderer, rendered, cached],
    rendered: { url: url(0), pids: [rendered.pid!, renderer.pid!], ...metrics(0) },
    cached: { url: url(2), pids: [cached.pid!], ...metrics(2) },
    dir,
  };
}

async function run(url: string, amount: number): Promise<{ errors: number; non2xx: number }> {
  const result = await autocannon({
    url: `${url}${PAGE}`,
    connections: 10,
    amount,
    headers: { 'user-agent': PERSON, accept: 'text/html' },
  });
  return { errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** CPU seconds per request the processes spent on `amount` requests. */
async function measure(target: Variant['rendered'], amount: number): Promise<number> {
  const before = await Promise.all(target.pids.map(cpuSeconds));
  const outcome = await run(target.url, amount);
  const after = await Promise.all(target.pids.map(cpuSeconds));
  if (outcome.errors || outcome.non2xx) throw new Error(`${target.url}: ${outcome.errors} errors, ${outcome.non2xx} non-2xx`);
  return after.reduce((sum, value, i) => sum + value - before[i]!, 0) / amount;
}

async function scenario(name: 'rendered' | 'cached', variants: Variant[], amount: number): Promise<Record<Mode, number[]>> {
  const perRequest: Record<Mode, number[]> = { off: [], 'off-twin': [], hooks: [], metrics: [], otlp: [], 'metrics-before': [] };
  // Warm every variant (JIT, caches, connections) before anything counts. Scrapes stay out of the
  // measured runs: Prometheus scrapes every 15-30 s, a run lasts about a second.
  for (const variant of variants) {
    await run(variant[name].url, Math.min(300, amount));
    if (variant[name].metrics && !(await fetch(variant[name].metrics!)).ok) throw new Error(`${variant.mode}: /metrics failed`);
  }
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < variants.length; step++) {
      const variant = variants[(round + step) % variants.length]!;
      perRequest[variant.mode].push(await measure(variant[name], amount));
    }
  }
  return perRequest;
}

function report(name: string, perRequest: Record<Mode, number[]>): void {
  const against = (mode: Mode, base: (round: number) => number) => median(perRequest[mode].map((cpu, i) => cpu / base(i)));
  // Both baselines of a round averaged: on a shared machine one of them alone can be off by 5%.
  const bothOff = (round: number) => (perRequest.off[round]! + perRequest['off-twin'][round]!) / 2;
  console.log(`\n${name}`);
  console.table(
    MODES.map((mode) => ({
      variant: mode,
      'CPU µs/request (median)': Math.round(median(perRequest[mode]) * 1e6),
      'vs off (median of rounds)': mode === 'off' ? '1.000' : against(mode, (i) => perRequest.off[i]!).toFixed(3),
      'vs mean of off and off-twin': against(mode, bothOff).toFixed(3),
      'extra CPU': mode === 'off' ? '' : `${((against(mode, bothOff) - 1) * 100).toFixed(1)}%`,
    })),
  );
  if (MODES.includes('metrics') && MODES.includes('metrics-before')) {
    const ratio = against('metrics', (i) => perRequest['metrics-before'][i]!);
    console.log(`metrics / metrics-before (this code against BENCH_BEFORE_DIR's, median of rounds): ${ratio.toFixed(3)}`);
  }
}

const sink = await startSink();
const variants: Variant[] = [];
try {
  for (const mode of MODES) variants.push(await startVariant(mode, sink.url));
  console.log(`bench:observability — ${PAGE}, ${rounds} interleaved rounds of ${requests} requests per variant (goal: extra CPU <= 3%)`);
  if (only !== 'cached')
    report('rendered every time (render cache off; gateway + renderer CPU)', await scenario('rendered', variants, requests));
  if (only !== 'rendered') report('served from the render cache (gateway CPU)', await scenario('cached', variants, requests * 10));
  console.log(`\nOTLP bytes received by the collector: ${sink.bytes()}`);
} finally {
  for (const variant of variants) {
    for (const child of variant.processes) child.kill('SIGTERM');
    await rm(variant.dir, { recursive: true, force: true });
  }
  sink.server.close();
}
