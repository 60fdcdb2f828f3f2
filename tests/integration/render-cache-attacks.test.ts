/**
 * The render cache under the attacks of issue 24, through the whole stack: spellings and Hosts
 * that each got an entry of their own, query variants that switched a page's caching off for
 * everyone, 404 bodies served across content types, and floods that grew the stores without
 * bound (files, memory, Redis: each measured against its byte budget after the flood).
 */
import { readdir, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus, sampleSum } from '../support/prometheus.js';
import { redisAvailable } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { startStack, type Stack } from '../support/stack.js';

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const CATEGORIES = ['css', 'docker', 'git', 'http', 'nodejs', 'postgresql', 'shell', 'typescript'];

const hasRedis = await redisAvailable();

/** A raw GET: the path exactly as given (fetch would normalise it) and any Host. */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    httpRequest({ hostname, port, path, headers: { 'user-agent': PERSON, accept: 'text/html', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** Bytes and files of the embedded shared store (all builds' folders). */
async function fileStoreUsage(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const build of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(join(dir, build)).catch(() => [] as string[])) {
      if (!name.endsWith('.bin')) continue;
      files++;
      bytes += (await stat(join(dir, build, name))).size;
    }
  }
  return { files, bytes };
}

const cacheDirOf = (stack: Stack) => join(dirname(stack.buildStoreDir!), 'render-cache');

/** The shared copy is written after the answer: the file count once it has reached `atLeast`. */
async function filesOnceWritten(stack: Stack, atLeast: number): Promise<number> {
  await waitFor(async () => (await fileStoreUsage(cacheDirOf(stack))).files >= atLeast, 5000);
  return (await fileStoreUsage(cacheDirOf(stack))).files;
}

/** The pages of the site in every variant a client can ask for, plus junk queries, spellings and 404s. */
function floodPaths(round: number): { path: string; headers: Record<string, string> }[] {
  const out: { path: string; headers: Record<string, string> }[] = [];
  for (const category of CATEGORIES) {
    for (const colour of ['', 'light.light', 'dark.dark']) {
      for (const ua of [PERSON, BOT]) {
        const headers: Record<string, string> = { 'user-agent': ua, ...(colour ? { cookie: `color-mode=${colour}` } : {}) };
        out.push({ path: `/category/${category}?flood=${round}`, headers });
        out.push({ path: `/category/${category}`, headers: { ...headers, accept: 'application/json' } });
      }
    }
    out.push({ path: `/category/${category.slice(0, -1)}%${category.charCodeAt(category.length - 1).toString(16)}`, headers: {} });
    out.push({ path: `/CATEGORY/${category.toUpperCase()}/`, headers: {} });
    out.push({ path: `/category/missing-${category}-${round}`, headers: {} });
  }
  return out;
}

describe('render cache attacks (embedded)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('redirects every other spelling of a page to its canonical path, which keeps one entry', async () => {
    const empty = (await fileStoreUsage(cacheDirOf(stack))).files;
    await rawGet(stack.url, '/category/git');
    const before = await filesOnceWritten(stack, empty + 1);
    for (const spelling of ['/category/gi%74', '/%63ategory/git', '/category/git/', '/category/%67%69%74/?x=1']) {
      const answer = await rawGet(stack.url, spelling);
      expect([spelling, answer.status]).toEqual([spelling, 308]);
      expect(answer.headers.location).toMatch(/^\/category\/git(\?x=1)?$/);
    }
    // The renderer's own matcher agrees: it redirects the same spellings when asked directly.
    const direct = await rawGet(stack.serviceUrl('renderer'), '/category/gi%74/');
    expect([direct.status, direct.headers.location]).toEqual([308, '/category/git']);
    // Case is significant (every route and slug is lowercase): another case is no page, at both.
    for (const base of [stack.url, stack.serviceUrl('renderer')]) {
      for (const spelling of ['/CATEGORY/git', '/category/Git'])
        expect([base, spelling, (await rawGet(base, spelling)).status]).toEqual([base, spelling, 404]);
    }
    // Reserved characters stay encoded: `%2F` is not a separator.
    expect((await rawGet(stack.url, '/category/git%2Fx')).status).not.toBe(308);
    expect((await rawGet(stack.url, '/category/git')).headers['x-cache']).toBe('HIT');
    expect((await fileStoreUsage(cacheDirOf(stack))).files).toBe(before);
  });

  it('keys pages on the public origin: forged Hosts get the one entry, never one of their own', async () => {
    const earlier = (await fileStoreUsage(cacheDirOf(stack))).files;
    await rawGet(stack.url, '/category/docker');
    const before = await filesOnceWritten(stack, earlier + 1);
    for (let i = 0; i < 40; i++) {
      const answer = await rawGet(stack.url, '/category/docker', { host: `forged-${i}.example` });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-cache']).toBe('HIT');
      expect(answer.body).not.toContain(`forged-${i}.example`);
    }
    expect((await fileStoreUsage(cacheDirOf(stack))).files).toBe(before);
  });

  it('never lets query variants switch a page out of the cache: undeclared parameters share its entry', async () => {
    for (let i = 0; i < 40; i++) expect((await rawGet(stack.url, `/category/shell?q=${i}`)).status).toBe(200);
    const plain = await rawGet(stack.url, '/category/shell');
    expect(plain.headers['x-cache']).toBe('HIT');
    expect((await rawGet(stack.url, '/category/shell?q=999')).headers['x-cache']).toBe('HIT');
  });

  it('never serves a 404 body cached for one content type to a client that asked for another', async () => {
    const json = await rawGet(stack.url, '/category/poison', { accept: 'application/json' });
    expect([json.status, json.headers['content-type']]).toEqual([404, expect.stringContaining('application/json')]);
    const html = await rawGet(stack.url, '/category/poison', { accept: 'text/html' });
    expect([html.status, html.headers['content-type']]).toEqual([404, expect.stringContaining('text/html')]);
    const first = await rawGet(stack.url, '/category/poison-2', { accept: 'text/html' });
    expect(first.headers['content-type']).toContain('text/html');
    const second = await rawGet(stack.url, '/category/poison-2', { accept: 'application/json' });
    expect(second.headers['content-type']).toContain('application/json');
  });
});

describe('render cache byte budgets under a flood (embedded)', () => {
  const FILE_BYTES = 400_000;
  const MEMORY_BYTES = 300_000;
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { CACHE_FILE_BYTES: String(FILE_BYTES), CACHE_MEMORY_BYTES: String(MEMORY_BYTES) } });
  });
  afterAll(() => stack?.stop());

  it('keeps the files and the memory within their budgets, and keeps serving pages from the cache', async () => {
    let sent = 0;
    for (let round = 0; round < 2; round++) {
      for (const { path, headers } of floodPaths(round)) sent += (await rawGet(stack.url, path, headers)) && 1;
    }
    const files = await fileStoreUsage(cacheDirOf(stack));
    expect(files.files).toBeGreaterThan(2);
    expect(files.bytes).toBeLessThanOrEqual(FILE_BYTES);
    const metricsPort = Number(new URL(stack.serviceUrl('gateway')).port) + 1000;
    const metrics = parsePrometheus(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
    const memory = sampleSum(metrics, 'render_cache_memory_bytes');
    expect(memory).toBeGreaterThan(0);
    expect(memory).toBeLessThanOrEqual(MEMORY_BYTES);
    console.log(
      `flood: ${sent} requests; files ${files.files}, ${files.bytes} of ${FILE_BYTES} bytes; memory ${memory} of ${MEMORY_BYTES}`,
    );
    await rawGet(stack.url, '/category/git');
    expect((await rawGet(stack.url, '/category/git')).headers['x-cache']).toBe('HIT');
  });
});

describe.runIf(hasRedis)('render cache byte budget under a flood (Redis)', () => {
  const REDIS_BYTES = 400_000;
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ redis: true, env: { CACHE_REDIS_BYTES: String(REDIS_BYTES) } });
  });
  afterAll(() => stack?.stop());

  it('keeps the entries within the budget, every render-cache key with a TTL', async () => {
    for (let round = 0; round < 2; round++) {
      for (const { path, headers } of floodPaths(round)) await rawGet(stack.url, path, headers);
    }
    const redis = new Redis(stack.redisUrl!, { maxRetriesPerRequest: 1 });
    try {
      // Shared writes finish after the answers: wait until the store is quiet.
      let last = -1;
      for (;;) {
        const keys = await redis.keys(`${stack.redisPrefix}cache*`);
        if (keys.length === last) break;
        last = keys.length;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const entries = await redis.keys(`${stack.redisPrefix}cache:*`);
      expect(entries.length).toBeGreaterThan(2);
      let bytes = 0;
      for (const key of entries) bytes += (await redis.strlen(key)) + Buffer.byteLength(key);
      expect(bytes).toBeLessThanOrEqual(REDIS_BYTES);
      console.log(`flood (Redis): ${entries.length} entries, ${bytes} of ${REDIS_BYTES} bytes`);
      for (const key of await redis.keys(`${stack.redisPrefix}cache*`)) {
        expect([key, await redis.pttl(key)]).toEqual([key, expect.any(Number)]);
        expect(await redis.pttl(key)).toBeGreaterThan(0);
      }
    } finally {
      redis.disconnect();
    }
  });
});
