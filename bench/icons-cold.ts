/**
 * Cold icon requests alternating over the three biggest @iconify/json sets (issue 13, item 15):
 * the service with its build-time indexes against the same service reading whole set files (an
 * index directory that does not exist), both at the default ICONS_MEMORY_LIMIT_MB (256), in
 * interleaved rounds. Prints per-request latency, the worst stall a warm request saw meanwhile,
 * and RSS, with after/before ratios. About 30 s; loopback only.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssOf } from './icons-measure.js';
import { median } from './support/rounds.js';
import { iconSetUrl } from '@tern/shared/url-space/icons';
import { DEFAULT_ICON_INDEX_DIR } from '@tern/icons/icon-index';

const HUGE = ['fluent-emoji', 'noto', 'iconmind'];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const REQUESTS_PER_ROUND = 9;

interface Server {
  label: string;
  child: ChildProcess;
  url: string;
  latencies: number[];
  warmWorst: number[];
  peakRss: number;
}

function startServer(label: string, indexDir: string): Promise<Server> {
  const script = join(fileURLToPath(new URL('.//', import.meta.url)), 'icons-server.js');
  const env = { ...process.env, ICONS_MEMORY_LIMIT_MB: '256', BENCH_ICON_INDEX_DIR: indexDir };
  const child = fork(script, ['icons'], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) =>
      resolve({ label, child, url: `http://127.0.0.1:${message.port}`, latencies: [], warmWorst: [], peakRss: 0 }),
    );
    child.once('exit', (code) => reject(new Error(`${label} server exited with ${code}`)));
  });
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

/** A few real names of each set, different on every request. */
async function namesOf(prefix: string): Promise<string[]> {
  const index = JSON.parse(await readFile(join(DEFAULT_ICON_INDEX_DIR, `${prefix}.json`), 'utf8')) as { names: string[] };
  return index.names;
}

async function round(server: Server, names: Map<string, string[]>, counter: { n: number }): Promise<void> {
  let coldDone = false;
  let warmWorst = 0;
  // A site icon requested over and over meanwhile: how long a visitor waits behind a cold load.
  const warm = (async () => {
    while (!coldDone) warmWorst = Math.max(warmWorst, await timed(`${server.url}${iconSetUrl('lucide', ['house', 'sun'])}`));
  })();
  for (let i = 0; i < REQUESTS_PER_ROUND; i++) {
    const prefix = HUGE[i % HUGE.length]!;
    const list = names.get(prefix)!;
    const picked = [0, 1, 2].map((k) => list[(counter.n * 7 + k * 13) % list.length]!);
    counter.n += 1;
    server.latencies.push(await timed(`${server.url}${iconSetUrl(prefix, picked)}`));
    server.peakRss = Math.max(server.peakRss, await rssOf(server.child.pid!));
  }
  coldDone = true;
  await warm;
  server.warmWorst.push(warmWorst);
}

if (!existsSync(DEFAULT_ICON_INDEX_DIR)) throw new Error(`no ${DEFAULT_ICON_INDEX_DIR}: run npm run build:icons first`);
const names = new Map(await Promise.all(HUGE.map(async (prefix) => [prefix, await namesOf(prefix)] as const)));
const before = await startServer('whole-file loads (before)', join(DEFAULT_ICON_INDEX_DIR, 'no-such-dir'));
const after = await startServer('build-time indexes (after)', DEFAULT_ICON_INDEX_DIR);
const servers = [before, after];
try {
  const startRss = await Promise.all(servers.map((server) => rssOf(server.child.pid!)));
  const counter = { n: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    for (const server of r % 2 ? [...servers].reverse() : servers) await round(server, names, counter);
  }
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  for (const [i, server] of servers.entries()) {
    const sorted = [...server.latencies].sort((a, b) => a - b);
    console.log(
      `${server.label}: ${sorted.length} cold requests over ${HUGE.join(', ')}: median ${median(sorted).toFixed(1)} ms, ` +
        `max ${sorted.at(-1)!.toFixed(1)} ms; worst warm request meanwhile (median over rounds) ${median(server.warmWorst).toFixed(1)} ms; ` +
        `RSS start ${mb(startRss[i]!)} MiB, peak ${mb(server.peakRss)} MiB, end ${mb(await rssOf(server.child.pid!))} MiB`,
    );
  }
  const ratio = (label: string, a: number, b: number) => console.log(`${label}: ${(a / b).toFixed(3)} (after/before)`);
  ratio('median cold request latency', median(after.latencies), median(before.latencies));
  ratio('max cold request latency', Math.max(...after.latencies), Math.max(...before.latencies));
  ratio('worst warm request during the cold ones', median(after.warmWorst), median(before.warmWorst));
  ratio('peak RSS', after.peakRss, before.peakRss);
} finally {
  for (const server of servers) server.child.kill();
}
