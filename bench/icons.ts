/**
 * Icon service benchmark (issue #8): warm subset requests against a Fastify hello world in the
 * same run (ratio), p99 of warm requests, cold load of the five largest collections, and RSS
 * with every site collection loaded. Bounded: about 40 s (BENCH_SECONDS per load run); loopback only.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir as iconifyJsonDir } from '@iconify/json';
import { load, printTable, ratio } from './support/load.js';
import { measureSequential, rssOf } from './icons-measure.js';
import { iconSetUrl, iconSvgPath } from '@tern/shared/url-space/icons';

interface Server {
  child: ChildProcess;
  url: string;
}

function startServer(kind: 'hello' | 'service' | 'icons'): Promise<Server> {
  const script = join(fileURLToPath(new URL('.//', import.meta.url)), 'icons-server.js');
  const child = fork(script, [kind], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, url: `http://127.0.0.1:${message.port}` }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

const WARM_PATHS = [
  iconSetUrl('lucide', ['house', 'sun', 'moon', 'search', 'menu', 'x', 'check', 'copy', 'chevron-right', 'github']),
  iconSetUrl('simple-icons', ['react', 'github', 'typescript', 'vite', 'nodedotjs']),
  iconSetUrl('logos', ['react', 'vue', 'nodejs-icon', 'typescript-icon']),
  iconSetUrl('devicon', ['react', 'typescript', 'nodejs', 'python']),
  `${iconSvgPath('lucide', 'house')}?width=24`,
];

/** The five sets with the most icons by collections.json. */
async function largestCollections(): Promise<string[]> {
  const list = JSON.parse(await readFile(join(iconifyJsonDir, 'collections.json'), 'utf8')) as Record<string, { total?: number }>;
  return Object.entries(list)
    .sort((a, b) => (b[1].total ?? 0) - (a[1].total ?? 0))
    .slice(0, 5)
    .map(([prefix]) => prefix);
}

/** The five listed sets with the biggest files (emoji sets: few icons, heavy bodies). */
async function biggestFiles(): Promise<{ prefix: string; mb: number }[]> {
  const list = JSON.parse(await readFile(join(iconifyJsonDir, 'collections.json'), 'utf8')) as Record<string, unknown>;
  const sizes = await Promise.all(
    Object.keys(list).map(async (prefix) => ({ prefix, mb: (await stat(join(iconifyJsonDir, 'json', `${prefix}.json`))).size / 1e6 })),
  );
  return sizes.sort((a, b) => b.mb - a.mb).slice(0, 5);
}

async function timeColdLoad(base: string, prefix: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${iconSetUrl(prefix, ['home'])}`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${prefix}: status ${response.status}`);
  return performance.now() - started;
}

const hello = await startServer('hello');
const service = await startServer('service');
const icons = await startServer('icons');
try {
  const rssMb = (await rssOf(icons.child.pid!)) / 1024 / 1024;
  const helloRssMb = (await rssOf(hello.child.pid!)) / 1024 / 1024;

  const baseline = await load('fastify hello world', `${hello.url}/`);
  const bootstrap = await load('hello world on packages/shared/src/http/service.ts', `${service.url}/`);
  const warm = await load('icon subset (lucide, 10 icons), warm', `${icons.url}${WARM_PATHS[0]}`);
  printTable([baseline, bootstrap, warm]);
  ratio('warm subset req/s vs fastify hello world', warm.requestsPerSecond, baseline.requestsPerSecond);
  ratio('warm subset req/s vs hello world on the shared bootstrap', warm.requestsPerSecond, bootstrap.requestsPerSecond);

  const sequential = await measureSequential(icons.url, WARM_PATHS, 3000);
  const helloSequential = await measureSequential(hello.url, ['/'], 3000);
  console.log(
    `warm requests one at a time (${sequential.count}, 5 URLs over the 4 site sets): p50 ${sequential.p50.toFixed(2)} ms, p99 ${sequential.p99.toFixed(2)} ms (goal <= 5 ms: ${sequential.p99 <= 5 ? 'met' : 'NOT met'})`,
  );
  console.log(`hello world one at a time: p50 ${helloSequential.p50.toFixed(2)} ms, p99 ${helloSequential.p99.toFixed(2)} ms`);
  console.log(`warm p99 under load (autocannon, 20 connections): ${warm.p99Ms} ms`);
  console.log(`RSS with every site collection loaded: ${rssMb.toFixed(1)} MB (hello world process: ${helloRssMb.toFixed(1)} MB)`);

  const largest = await largestCollections();
  for (const prefix of largest) {
    const ms = await timeColdLoad(icons.url, prefix);
    console.log(`cold load ${prefix}: ${ms.toFixed(0)} ms (goal <= 150 ms: ${ms <= 150 ? 'met' : 'NOT met'})`);
  }
  for (const { prefix, mb } of (await biggestFiles()).filter((file) => !largest.includes(file.prefix))) {
    const ms = await timeColdLoad(icons.url, prefix);
    console.log(`cold load ${prefix} (${mb.toFixed(1)} MB file, for information): ${ms.toFixed(0)} ms`);
  }
  console.log(`RSS after the cold loads (limit 1024 MB in this run): ${((await rssOf(icons.child.pid!)) / 1024 / 1024).toFixed(1)} MB`);
} finally {
  for (const server of [hello, service, icons]) server.child.kill();
}
