/**
 * The image service against its baselines, in one run:
 * 1. a first transform (a 2.5 MP JPEG to 640 px webp) against bare sharp doing the same (goal <= 1.2);
 * 2. a cached variant against the same bytes served by @fastify/static (goal >= 0.8);
 * 3. RSS under a bounded mixed load (BENCH_RSS_SECONDS, default 60).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import sharp from 'sharp';
import { createLogger } from '@tern/shared/logging/logger';
import { buildImageApp } from '@tern/image/app';
import { parseImageConfig } from '@tern/image/config';
import { load, printTable, ratio, type LoadResult } from './support/load.js';
import { IMAGE_PREFIX } from '@tern/shared/url-space/images';

const FIRST_RUNS = Number(process.env.BENCH_IMAGE_RUNS ?? 15);
const RSS_SECONDS = Number(process.env.BENCH_RSS_SECONDS ?? 60);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function photo(width: number, height: number): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .blur(1.5)
    .png()
    .toBuffer();
  return sharp(noise).modulate({ saturation: 1.4 }).jpeg({ quality: 88 }).toBuffer();
}

const elapsed = async (work: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), 'bench-image-'));
  const root = join(base, 'public');
  await mkdir(join(root, 'images'), { recursive: true });
  const jpeg = await photo(2000, 1250);
  for (let i = 0; i < FIRST_RUNS + 20; i++) await writeFile(join(root, 'images', `photo-${i}.jpg`), jpeg);
  console.log(`source: 2000x1250 JPEG (2.5 MP), ${mb(jpeg.length)}; ${FIRST_RUNS} first transforms each way`);

  const config = parseImageConfig({ IMAGE_DIR: root, IMAGE_CACHE_DIR: join(base, 'cache'), IMAGE_SNAP_WIDTHS: 'true' });
  const { app, images } = await buildImageApp(config, { logger: createLogger({ service: 'image', level: 'silent', format: 'json' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  // 1. First transforms, interleaved with bare sharp so both see the same machine state.
  const bare = () => sharp(jpeg, { autoOrient: true }).resize(640, undefined, { withoutEnlargement: true }).webp().toBuffer();
  await bare();
  await (await fetch(`${origin}${IMAGE_PREFIX}w_640/images/photo-${FIRST_RUNS + 19}.jpg`)).arrayBuffer();
  const serviceTimes: number[] = [];
  const sharpTimes: number[] = [];
  for (let i = 0; i < FIRST_RUNS; i++) {
    sharpTimes.push(await elapsed(bare));
    serviceTimes.push(
      await elapsed(async () => {
        const response = await fetch(`${origin}${IMAGE_PREFIX}w_640/images/photo-${i}.jpg`);
        if (response.headers.get('x-image-cache') !== 'MISS') throw new Error('expected a first transform');
        await response.arrayBuffer();
      }),
    );
  }
  console.log(
    `first transform: service median ${median(serviceTimes).toFixed(1)} ms, bare sharp median ${median(sharpTimes).toFixed(1)} ms`,
  );
  ratio('first transform, service / bare sharp (median)', median(serviceTimes), median(sharpTimes), { atMost: 1.2 });

  // 2. A cached variant against the very same bytes as a static file.
  const cachedUrl = `${origin}${IMAGE_PREFIX}w_640/images/photo-0.jpg`;
  const variant = Buffer.from(await (await fetch(cachedUrl)).arrayBuffer());
  const staticRoot = join(base, 'static');
  await mkdir(staticRoot);
  await writeFile(join(staticRoot, 'photo-0.webp'), variant);
  const files = Fastify({ logger: false });
  await files.register(fastifyStatic, { root: staticRoot, maxAge: 86_400_000 });
  await files.listen({ port: 0, host: '127.0.0.1' });
  const filesAddress = files.server.address();
  const staticUrl = `http://127.0.0.1:${typeof filesAddress === 'object' && filesAddress ? filesAddress.port : 0}/photo-0.webp`;
  // Alternating short rounds, so a noisy neighbour weighs on both sides alike.
  const roundSeconds = Math.max(1, Math.round(Number(process.env.BENCH_SECONDS ?? 9) / 3));
  const runs: LoadResult[] = [];
  for (let round = 1; round <= 3; round++) {
    runs.push(await load(`@fastify/static, same bytes #${round}`, staticUrl, { connections: 10, durationSeconds: roundSeconds }));
    runs.push(await load(`image service, cached variant #${round}`, cachedUrl, { connections: 10, durationSeconds: roundSeconds }));
  }
  printTable(runs);
  const total = (prefix: string) => runs.filter((r) => r.label.startsWith(prefix)).reduce((sum, r) => sum + r.requestsPerSecond, 0);
  ratio('cached variant req/s / @fastify/static req/s', total('image'), total('@fastify'), { atLeast: 0.8 });
  await files.close();

  // 3. RSS under a bounded mixed load: new variants (transforms) and hits, 4 connections.
  const widths = [320, 640, 768, 1024, 1280, 1536];
  let n = 0;
  const rss: number[] = [process.memoryUsage().rss];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 500);
  const result = await autocannon({
    url: origin,
    connections: 4,
    duration: RSS_SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          n++;
          const source = n % (FIRST_RUNS + 20);
          return { ...request, path: `${IMAGE_PREFIX}w_${widths[n % widths.length]}&q_${60 + (n % 4) * 10}/images/photo-${source}.jpg` };
        },
      },
    ],
  });
  clearInterval(sampler);
  rss.push(process.memoryUsage().rss);
  const m = images.metrics;
  console.log(
    `RSS over ${RSS_SECONDS} s of mixed load: start ${mb(rss[0]!)}, peak ${mb(Math.max(...rss))}, end ${mb(rss[rss.length - 1]!)}; ` +
      `${result.requests.total} requests (${Math.round(result.requests.average)}/s), ${result.non2xx} non-2xx, ` +
      `${m.transforms} transforms, ${m.cacheHits} cache hits in total`,
  );
  await app.close();
  // Transforms whose clients left at the end of the load still finish and write their results.
  while (images.queue.stats.running > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await rm(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

await main();
