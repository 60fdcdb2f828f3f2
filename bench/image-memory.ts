/**
 * Image service memory around a transform burst (issue 13, item 4): the real service process
 * (services/image/dist/main.js, production) under each allocator setting in turn, with
 * its RSS at start, its peak during a burst of distinct transforms, and 10, 20 and 30 s after it.
 * Settings: glibc as `npm start` runs it (MALLOC_ARENA_MAX=2), glibc with a fixed mmap threshold
 * (big image buffers then go straight back to the kernel when freed), and jemalloc through
 * LD_PRELOAD when libjemalloc2 is installed (packages/cli/src/services.ts IMAGE_JEMALLOC). Ratios compare
 * the RSS kept 30 s after the burst (above start) against the first setting, same run.
 * Env: BENCH_BURST (distinct transforms, default 300), BENCH_IDLE_SECONDS (default 30).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { JEMALLOC_PATH, MALLOC_MMAP_ENV, jemallocEnv } from '@tern/cli/allocator';
import { serviceEntry, waitForOk } from '@tern/cli/services';
import { rssOf } from './support/process-memory.js';
import { HEALTH_PATH } from '@tern/shared/url-space/health';
import { IMAGE_PREFIX } from '@tern/shared/url-space/images';

const BURST = Number(process.env.BENCH_BURST ?? 300);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const SOURCES = 12;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function photo(seed: number): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 2400,
      height: 1600,
      channels: 3,
      background: { r: 90 + seed * 10, g: 128, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .blur(1.5)
    .png()
    .toBuffer();
  return sharp(noise).jpeg({ quality: 88 }).toBuffer();
}

interface Setting {
  label: string;
  env: NodeJS.ProcessEnv;
}

interface Figures {
  start: number;
  peak: number;
  after: number[];
  requests: number;
  non2xx: number;
}

async function measure(setting: Setting, port: number, dirs: { images: string; cache: string }): Promise<Figures> {
  await rm(dirs.cache, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, [serviceEntry('image')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      METRICS_PORT: '0',
      IMAGE_DIR: dirs.images,
      IMAGE_CACHE_DIR: dirs.cache,
      IMAGE_SNAP_WIDTHS: 'false',
      ...setting.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitForOk(`${origin}${HEALTH_PATH}`);
    // One transform first, so "start" includes sharp and libvips loaded, as after the first visitor.
    await (await fetch(`${origin}${IMAGE_PREFIX}w_100/images/photo-0.jpg`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const start = rssOf(child.pid!);
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 100);
    let n = 0;
    const result = await autocannon({
      url: origin,
      connections: 8,
      amount: BURST,
      requests: [
        {
          setupRequest: (request) => {
            n++;
            // Distinct variants: every request is a transform.
            return { ...request, path: `${IMAGE_PREFIX}w_${200 + n * 4}&q_70/images/photo-${n % SOURCES}.jpg` };
          },
        },
      ],
    });
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(child.pid!));
    const after: number[] = [];
    for (let waited = 0; waited < IDLE_SECONDS; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      after.push(rssOf(child.pid!));
    }
    return { start, peak, after, requests: result.requests.total, non2xx: result.non2xx };
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const base = await mkdtemp(join(tmpdir(), 'bench-image-memory-'));
try {
  const images = join(base, 'public');
  await mkdir(join(images, 'images'), { recursive: true });
  for (let i = 0; i < SOURCES; i++) await writeFile(join(images, 'images', `photo-${i}.jpg`), await photo(i));
  const settings: Setting[] = [
    { label: 'glibc, MALLOC_ARENA_MAX=2 (npm start before)', env: { MALLOC_ARENA_MAX: '2' } },
    { label: `glibc, MALLOC_ARENA_MAX=2 + ${Object.keys(MALLOC_MMAP_ENV).join(', ')}`, env: { MALLOC_ARENA_MAX: '2', ...MALLOC_MMAP_ENV } },
  ];
  const jemalloc = jemallocEnv();
  if (jemalloc) settings.push({ label: `jemalloc (LD_PRELOAD ${JEMALLOC_PATH})`, env: jemalloc });
  else console.log(`jemalloc: not measured, ${JEMALLOC_PATH} is not installed (apt-get install libjemalloc2)`);
  console.log(`burst: ${BURST} distinct transforms of 2400x1600 JPEGs, 8 connections; RSS 10 to ${IDLE_SECONDS} s after it`);
  const figures: Figures[] = [];
  for (const [i, setting] of settings.entries()) {
    const f = await measure(setting, 47_800 + i, { images, cache: join(base, 'cache') });
    figures.push(f);
    console.log(
      `${setting.label}: start ${mib(f.start)}, peak ${mib(f.peak)} (+${mib(f.peak - f.start)}), ` +
        `after ${f.after.map((rss, k) => `${(k + 1) * 10} s ${mib(rss)}`).join(', ')} (+${mib(f.after.at(-1)! - f.start)} above start); ` +
        `${f.requests} requests, ${f.non2xx} non-2xx`,
    );
  }
  const kept = (f: Figures) => Math.max(1, f.after.at(-1)! - f.start);
  for (const [i, setting] of settings.entries()) {
    if (i === 0) continue;
    console.log(
      `RSS kept above start ${IDLE_SECONDS} s after the burst, ${setting.label} / first setting: ${(kept(figures[i]!) / kept(figures[0]!)).toFixed(2)}`,
    );
    console.log(
      `peak rise, ${setting.label} / first setting: ${((figures[i]!.peak - figures[i]!.start) / (figures[0]!.peak - figures[0]!.start)).toFixed(2)}`,
    );
  }
} finally {
  await rm(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
