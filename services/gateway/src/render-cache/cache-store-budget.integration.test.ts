/**
 * The byte budgets of the shared render-cache stores (files, Redis): a flood of distinct entries
 * never holds more than the budget, the least recently written go first, a rewrite of one entry
 * is not counted twice, and a purge keeps the count right. Redis: every key it writes has a TTL.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../../tests/support/redis.js';
import { createEntry, withEncoding, type CacheEntry } from './cache-entry.js';
import { createFileCacheStore } from './file-store.js';
import { createRedisCacheStore } from './redis-store.js';
import type { SharedCacheStore } from './shared-store.js';

const RULE = { maxAge: null, staleMaxAge: null, varies: [] };
const BODY = Buffer.from(`<p>${'x'.repeat(10_000)}</p>`);
const TTL = 60_000;

function entry(path: string): Promise<CacheEntry> {
  // Random bytes: brotli must not shrink the rewrite below the first write.
  const body = Buffer.concat([BODY, Buffer.from(randomUUID().repeat(20))]);
  return createEntry(`build-1:${path}?#o=x`, { status: 200, headers: { 'content-type': 'text/html' }, body }, RULE);
}

async function dirBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const build of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(join(dir, build)).catch(() => [] as string[])) bytes += (await stat(join(dir, build, name))).size;
  }
  return bytes;
}

/** Writes 30 entries into a budget of about 4, checking the bound after each write. */
async function flood(store: SharedCacheStore, budget: number, measure: () => Promise<number>): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await store.set(await entry(`/p/${i}`), TTL);
    expect(await measure()).toBeLessThanOrEqual(budget);
  }
  // The newest are there, the oldest went.
  expect(await store.get((await entry('/p/29')).key)).not.toBeNull();
  expect(await store.get((await entry('/p/0')).key)).toBeNull();
  // A rewrite (an encoding added) replaces the entry's bytes, it does not add to them.
  const again = await withEncoding(await entry('/p/29'), 'gzip');
  await store.set(again, TTL);
  expect(await measure()).toBeLessThanOrEqual(budget);
  expect((await store.get(again.key))?.bodies.gzip).toBeDefined();
}

describe('the file store keeps within CACHE_FILE_BYTES', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('evicts the least recently written files, and purges keep the count right', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cache-budget-'));
    dirs.push(dir);
    const budget = 4.5 * 11_000;
    const store = createFileCacheStore(dir, { maxBytes: budget });
    await flood(store, budget, () => dirBytes(dir));
    expect(store.bytes()).toBe(await dirBytes(dir));
    await store.purge('/p/*');
    expect([store.bytes(), await dirBytes(dir)]).toEqual([0, 0]);
    await store.close();
  });

  it('counts the files a previous run left, once it lists their folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cache-budget-'));
    dirs.push(dir);
    const budget = 4.5 * 11_000;
    const first = createFileCacheStore(dir, { maxBytes: budget });
    for (let i = 0; i < 4; i++) await first.set(await entry(`/old/${i}`), TTL);
    const second = createFileCacheStore(dir, { maxBytes: budget });
    await flood(second, budget, () => dirBytes(dir));
  });
});

const hasRedis = await redisAvailable();

describe.runIf(hasRedis)('the Redis store keeps within CACHE_REDIS_BYTES', () => {
  const prefix = `test:${randomUUID()}:`;
  const redis = new Redis(TEST_REDIS_URL);
  afterAll(async () => {
    await deleteKeys(TEST_REDIS_URL, prefix);
    redis.disconnect();
  });

  async function entryBytes(): Promise<number> {
    let bytes = 0;
    for (const key of await redis.keys(`${prefix}cache:*`)) bytes += (await redis.strlen(key)) + Buffer.byteLength(key);
    return bytes;
  }

  it('evicts the least recently written entries, gives every key a TTL, and purges keep the count right', async () => {
    const budget = 4.5 * 11_000;
    const store = createRedisCacheStore(TEST_REDIS_URL, prefix, 2000, { maxBytes: budget });
    await flood(store, budget, entryBytes);
    for (const key of await redis.keys(`${prefix}*`)) expect([key, (await redis.pttl(key)) > 0]).toEqual([key, true]);
    expect(Number(await redis.get(`${prefix}cache-bytes`))).toBe(await entryBytes());
    expect(await store.purge('/p/2*')).toBeGreaterThan(0);
    expect(Number(await redis.get(`${prefix}cache-bytes`))).toBe(await entryBytes());
    expect(await redis.pttl(`${prefix}cache-bytes`)).toBeGreaterThan(0);
    await store.close();
  });

  it('never keeps an entry larger than the whole budget', async () => {
    const store = createRedisCacheStore(TEST_REDIS_URL, `${prefix}small:`, 2000, { maxBytes: 1000 });
    await store.set(await entry('/big'), TTL);
    expect(await store.get((await entry('/big')).key)).toBeNull();
    await store.close();
  });
});
