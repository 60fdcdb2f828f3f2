/**
 * `npm run bench:soak`: the four services as `npm start` runs them (own processes, production,
 * MALLOC_ARENA_MAX=2), then
 *   1. the peak: pages, icons and cached images at full speed for SOAK_PEAK_SECONDS (default 10);
 *   2. the soak: the same mix held at 70% of that peak for SOAK_SECONDS (default 180), with the
 *      RSS of every service sampled every 5 s;
 *   3. an image burst of SOAK_BURST distinct transforms (default 400), then the image service's
 *      RSS right after and after 15 s idle, against its RSS before the burst.
 * Loopback only; its own build-store and image-cache folders under the system temp dir.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { defaultPublicDir } from '@tern/shared/config/paths';
import { SERVICE_NAMES, spawnService, waitForStack, type ServiceName } from '@tern/cli/services';
import { rssOf } from './support/process-memory.js';
import { iconSetUrl } from '@tern/shared/url-space/icons';
import { IMAGE_PREFIX, isImagePath } from '@tern/shared/url-space/images';
import { payloadPath } from '@tern/shared/url-space/payload';

const PEAK_SECONDS = Number(process.env.SOAK_PEAK_SECONDS ?? 10);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const BURST = Number(process.env.SOAK_BURST ?? 400);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function start(basePort: number, dirs: { store: string; images: string }): Promise<Map<ServiceName, ChildProcess>> {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    BUILD_STORE_DIR: dirs.store,
    IMAGE_CACHE_DIR: dirs.images,
    IMAGE_SNAP_WIDTHS: 'false',
  };
  const children = new Map<ServiceName, ChildProcess>();
  for (const name of SERVICE_NAMES) {
    const child = spawnService(name, basePort, env);
    child.stdout!.resume();
    child.stderr!.pipe(process.stderr);
    children.set(name, child);
  }
  await waitForStack(basePort, 60_000);
  return children;
}

/** The mix a visitor causes: pages, payloads, an icon set and an already-made image. */
async function mixPaths(origin: string): Promise<string[]> {
  const images = (await readdir(join(defaultPublicDir, 'images', 'categories'))).slice(0, 4);
  const paths = ['/', '/category/typescript', payloadPath('/'), iconSetUrl('lucide', ['search', 'sun', 'moon'])];
  paths.push(...images.map((file) => `${IMAGE_PREFIX}w_640/images/categories/${file}`));
  for (const path of paths) await (await fetch(origin + path)).arrayBuffer();
  return paths;
}

async function run(origin: string, paths: string[], seconds: number, overallRate?: number) {
  let n = 0;
  const result = await autocannon({
    url: origin,
    connections: 16,
    duration: seconds,
    ...(overallRate ? { overallRate } : {}),
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[n++ % paths.length]! }) }],
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

async function main(): Promise<void> {
  const base = 20_000 + Math.floor(Math.random() * 20_000);
  const origin = `http://127.0.0.1:${base}`;
  const tmp = await mkdtemp(join(tmpdir(), 'soak-'));
  const children = await start(base, { store: join(tmp, 'store'), images: join(tmp, 'images') });
  const pids = new Map([...children].map(([name, child]) => [name, child.pid!]));
  const sample = () => Object.fromEntries([...pids].map(([name, pid]) => [name, rssOf(pid)])) as Record<ServiceName, number>;
  try {
    const paths = await mixPaths(origin);
    const peak = await run(origin, paths, PEAK_SECONDS);
    const rate = Math.max(1, Math.round(peak.rps * 0.7));
    console.log(
      `peak: ${Math.round(peak.rps)} req/s (p99 ${peak.p99} ms, ${peak.errors} errors, ${peak.non2xx} non-2xx); soak at ${rate} req/s`,
    );

    const samples: Record<ServiceName, number>[] = [sample()];
    const timer = setInterval(() => samples.push(sample()), 5000);
    const soak = await run(origin, paths, SOAK_SECONDS, rate);
    clearInterval(timer);
    samples.push(sample());
    console.log(
      `soak: ${SOAK_SECONDS} s at ${Math.round(soak.rps)} req/s, p99 ${soak.p99} ms, ${soak.errors} errors, ${soak.non2xx} non-2xx`,
    );
    console.table(
      SERVICE_NAMES.map((name) => {
        const series = samples.map((s) => s[name]);
        const third = Math.max(1, Math.floor(series.length / 3));
        const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        return {
          service: name,
          start: mb(series[0]!),
          peak: mb(Math.max(...series)),
          end: mb(series.at(-1)!),
          'last third / first third': (avg(series.slice(-third)) / avg(series.slice(0, third))).toFixed(2),
        };
      }),
    );

    const before = rssOf(pids.get('image')!);
    const images = paths.filter(isImagePath);
    let n = 0;
    const burst = await autocannon({
      url: origin,
      connections: 8,
      amount: BURST,
      requests: [
        {
          setupRequest: (request) => {
            n++;
            const source = images[n % images.length]!.replace(`${IMAGE_PREFIX}w_640`, '');
            return { ...request, path: `${IMAGE_PREFIX}w_${200 + (n % 1200)}&q_${50 + (n % 40)}${source}` };
          },
        },
      ],
    });
    const after = rssOf(pids.get('image')!);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const settled = rssOf(pids.get('image')!);
    console.log(
      `image burst: ${BURST} distinct transforms (${burst.non2xx} non-2xx, ${burst.errors} errors); image RSS before ${mb(before)}, ` +
        `right after ${mb(after)}, 15 s later ${mb(settled)} (ratio to before: ${(settled / before).toFixed(2)})`,
    );
  } finally {
    for (const child of children.values()) child.kill('SIGTERM');
    await Promise.all([...children.values()].map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
