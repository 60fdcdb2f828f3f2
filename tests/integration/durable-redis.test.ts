/**
 * Durable data in Redis, against real redis-servers of the test's own and the whole stack:
 *  - a Redis with a small maxmemory and volatile-lru, filled through the render cache until it
 *    evicts: every account, saved list and session is still there, and sign-in, adding a user and
 *    saving still work; every key that can be rebuilt has a TTL and no durable key has one;
 *  - a Redis with the append-only file, killed and started again: the same visitor is still signed
 *    in and finds the saved recipe.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { createRedisCacheStore } from '@tern/gateway/render-cache/redis-store';
import { ttlOf } from '@tern/gateway/render-cache/shared-store';
import { createRedisUserStore } from 'cookbook/server/users/redis-user-store';
import { startStack, type Stack } from '../support/stack.js';
import { addUser, Visitor } from './site-support.js';

const installed = redisServerInstalled();
if (!installed) console.warn('skipping the durable-data Redis suite: redis-server is not installed');

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const RECIPE = 'undo-last-commit';

/** One INFO field of a section, as a number. */
async function infoNumber(redis: Redis, section: string, field: string): Promise<number> {
  const match = new RegExp(`^${field}:(\\d+)`, 'm').exec(await redis.info(section));
  return Number(match?.[1] ?? NaN);
}

/** Every key under the prefix, grouped by its family (the part after the prefix, up to ':'), with whether it has a TTL. */
async function keyFamilies(redis: Redis, prefix: string): Promise<Map<string, { withTtl: number; without: number }>> {
  const families = new Map<string, { withTtl: number; without: number }>();
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
    for (const key of keys) {
      const family = key.slice(prefix.length).split(':')[0]!;
      const entry = families.get(family) ?? { withTtl: 0, without: 0 };
      // -2: gone since the scan saw it (Redis is full and still evicting); only -1 means no TTL.
      const ttl = await redis.pttl(key);
      if (ttl === -2) continue;
      if (ttl >= 0) entry.withTtl++;
      else entry.without++;
      families.set(family, entry);
    }
  }
  return families;
}

describe.runIf(installed)('a full Redis (maxmemory 4 MB, volatile-lru) filled through the render cache', () => {
  let redis: OwnRedis;
  let stack: Stack;
  let client: Redis;
  const accounts = Array.from({ length: 40 }, (_, i) => ({
    email: `kept-${i}@cookbook.test`,
    name: `Kept ${i}`,
    password: `password number ${i}`,
  }));
  const ids = new Map<string, string>();

  beforeAll(async () => {
    redis = await ownRedis({ args: ['--maxmemory', '4mb', '--maxmemory-policy', 'volatile-lru'] });
    await redis.start();
    // Every unknown category a new (404) cache entry: the flood is limited by Redis's memory, nothing else.
    stack = await startStack({ redis: true, redisUrl: redis.url });
    client = new Redis(redis.url);
    // The accounts before the flood, in the store the renderer uses (a cheap hash cost: the check reads the cost from the hash).
    const users = createRedisUserStore({ redis: client, prefix: stack.redisPrefix!, cost: { N: 1024, r: 8, p: 1 } });
    for (const account of accounts) {
      const user = await users.add(account);
      ids.set(account.email, user.id);
      await users.save(user.id, RECIPE);
    }
  });
  afterAll(async () => {
    client?.disconnect();
    await stack?.stop();
    await redis?.stop();
  });

  it('evicts only cache entries: no account, saved recipe or session is lost, and sign-in, adding a user and saving still work', async () => {
    const signedIn = new Visitor(stack.url);
    expect((await signedIn.login(accounts[0]!.email, accounts[0]!.password)).status).toBe(200);

    // The flood: the gateway's own Redis cache store, as a flood of distinct pages would drive it, with
    // the default byte budget (256 MB) far above this Redis's maxmemory, as an operator might leave it.
    // The site has too few cacheable pages to fill 4 MB through the gateway (undeclared queries are
    // dropped from the key and 404s stay in memory), so the entries are a real page's bytes under
    // distinct keys, each with the TTL the render cache gives it.
    const page = await fetch(`${stack.url}/category/git`, { headers: { 'user-agent': PERSON, accept: 'text/html' } });
    expect(page.status).toBe(200);
    const body = Buffer.from(await page.arrayBuffer());
    const cache = createRedisCacheStore(redis.url, stack.redisPrefix!, 2000, { queueWhileConnecting: true });
    let sent = 0;
    const evicted = () => infoNumber(client, 'stats', 'evicted_keys');
    try {
      while ((await evicted()) < 300 && sent < 20_000) {
        await Promise.all(
          Array.from({ length: 8 }, (_, lane) => {
            const now = Date.now();
            const key = `flood:/category/flood-${sent + lane}?#html`;
            const entry = {
              key,
              status: 200,
              headers: {},
              etag: `"${key}"`,
              storedAt: now,
              freshUntil: now + 60_000,
              staleUntil: null,
              bodies: { identity: body },
            };
            return cache.set(entry, ttlOf(entry, now));
          }),
        );
        sent += 8;
      }
    } finally {
      await cache.close();
    }
    const maxmemory = 4 * 1024 * 1024;
    expect(await evicted(), `evictions after ${sent} pages`).toBeGreaterThanOrEqual(300);
    expect(await infoNumber(client, 'memory', 'used_memory')).toBeGreaterThan(maxmemory * 0.8);

    // Nothing durable went: every account, its email, its saved list; the session from before the flood.
    const users = createRedisUserStore({ redis: client, prefix: stack.redisPrefix! });
    for (const account of accounts) {
      const user = await users.findByEmail(account.email);
      expect(user?.id, account.email).toBe(ids.get(account.email));
      expect(await users.saved(user!.id), account.email).toEqual([RECIPE]);
    }
    expect((await (await signedIn.fetch('/api/auth/session')).json()).user).toMatchObject({ email: accounts[0]!.email });

    // And the writes still work on a full Redis: sign-in, a new user (the users CLI), saving.
    for (const account of accounts.slice(1, 6))
      expect((await new Visitor(stack.url).login(account.email, account.password)).status).toBe(200);
    const added = await addUser(
      { REDIS_URL: stack.redisUrl!, REDIS_PREFIX: stack.redisPrefix! },
      'new@cookbook.test',
      'New Cook',
      'added when full',
    );
    expect(added.code, added.out).toBe(0);
    const newcomer = new Visitor(stack.url);
    expect((await newcomer.login('new@cookbook.test', 'added when full')).status).toBe(200);
    expect((await newcomer.fetch(`/api/saved/${RECIPE}`, { method: 'POST' })).status).toBe(201);
    expect((await signedIn.fetch('/api/saved/compose-healthchecks', { method: 'POST' })).status).toBeLessThan(300);
    expect((await (await newcomer.fetch('/api/saved')).json()).recipes.map((r: { id: string }) => r.id)).toEqual([RECIPE]);
  });

  it('gives every key that can be rebuilt a TTL and no durable key one', async () => {
    const families = await keyFamilies(client, stack.redisPrefix!);
    const durable = ['user', 'user-email', 'saved', 'session', 'sessions'];
    for (const family of durable) {
      const found = families.get(family);
      if (found) expect(found.withTtl, `${family}: keys with a TTL`).toBe(0);
    }
    expect(families.get('user')?.without).toBe(accounts.length + 1);
    expect(families.get('cache')?.without ?? 0, 'cache entries without a TTL').toBe(0);
    expect(families.get('cache')?.withTtl ?? 0).toBeGreaterThan(0);
  });
});

describe.runIf(installed)('a Redis with the append-only file, killed and started again', () => {
  let redis: OwnRedis;
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'redis-aof-'));
    redis = await ownRedis({ args: ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir] });
    await redis.start();
    stack = await startStack({ redis: true, redisUrl: redis.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The append-only file's text (Redis 7 keeps it in appendonlydir/). */
  async function appendOnlyText(): Promise<string> {
    const folder = join(dir, 'appendonlydir');
    const names = await readdir(folder).catch(() => [] as string[]);
    const texts = await Promise.all(names.filter((n) => n.endsWith('.aof')).map((n) => readFile(join(folder, n), 'latin1')));
    return texts.join('');
  }

  it('keeps the user, the session and the saved recipe', async () => {
    const env = { REDIS_URL: stack.redisUrl!, REDIS_PREFIX: stack.redisPrefix! };
    const added = await addUser(env, 'restart@cookbook.test', 'Restart Cook', 'survives a restart');
    expect(added.code, added.out).toBe(0);
    const visitor = new Visitor(stack.url);
    expect((await visitor.login('restart@cookbook.test', 'survives a restart')).status).toBe(200);
    expect((await visitor.fetch(`/api/saved/${RECIPE}`, { method: 'POST' })).status).toBe(201);
    const durabilityLine = () => stack.logs('renderer').find((line) => line.includes('"redisDurability"'));
    await waitFor(() => durabilityLine() !== undefined, 10_000);
    expect(durabilityLine()).toContain('"redisDurability":"ok"');

    // SIGKILL, no shutdown save: what is in the append-only file is all the next Redis gets.
    await waitFor(async () => (await appendOnlyText()).includes(`${stack.redisPrefix}saved:`), 10_000);
    await redis.stop();
    await redis.start();

    await waitFor(async () => (await visitor.fetch('/api/auth/session')).status === 200, 15_000, 100);
    expect((await (await visitor.fetch('/api/auth/session')).json()).user).toMatchObject({ email: 'restart@cookbook.test' });
    expect((await (await visitor.fetch('/api/saved')).json()).recipes.map((r: { id: string }) => r.id)).toEqual([RECIPE]);
    expect((await new Visitor(stack.url).login('restart@cookbook.test', 'survives a restart')).status).toBe(200);
  });
});
