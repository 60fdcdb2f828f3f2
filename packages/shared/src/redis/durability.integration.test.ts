import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { assessDurability, logDurability, readDurabilityFacts, watchRedisDurability } from './durability.js';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../../../../tests/support/redis.js';
import { waitFor } from '../../../../tests/support/wait-for.js';

describe('assessDurability', () => {
  it('is ok with the append-only file and volatile-lru', () => {
    expect(assessDurability({ appendonly: true, save: '', appendfsync: 'everysec', policy: 'volatile-lru', maxmemory: 1 << 20 })).toEqual({
      status: 'ok',
      problems: [],
      notes: [],
    });
  });

  it('calls persistence off and an allkeys-* policy unsafe', () => {
    const verdict = assessDurability({ appendonly: false, save: '', policy: 'allkeys-lru', maxmemory: 1 << 20 });
    expect(verdict.status).toBe('unsafe');
    expect(verdict.problems).toEqual([
      'persistence is off (appendonly no, no save points): a restart empties Redis and every account with it',
      'maxmemory-policy allkeys-lru may evict keys without a TTL (accounts, sessions): use volatile-lru',
    ]);
  });

  it('says what it could not check when CONFIG is refused', () => {
    const verdict = assessDurability({ appendonly: false, policy: 'volatile-lru', configRefused: 'NOPERM' });
    expect(verdict.status).toBe('unknown');
    expect(verdict.notes).toEqual(['appendonly is off and RDB snapshots could not be checked (NOPERM)']);
  });

  it('notes RDB-only persistence and noeviction with a memory limit without calling them unsafe', () => {
    const verdict = assessDurability({ appendonly: false, save: '3600 1', policy: 'noeviction', maxmemory: 1 << 20 });
    expect(verdict.status).toBe('ok');
    expect(verdict.notes).toHaveLength(2);
  });
});

const installed = redisServerInstalled();
const dir = await mkdtemp(join(tmpdir(), 'redis-durability-'));
if (!installed) console.warn('skipping the Redis durability check against redis-server: it is not installed');

describe.runIf(installed)('the durability check against a real redis-server', () => {
  let server: OwnRedis | undefined;
  afterEach(async () => server?.stop());
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function factsOf(args: string[]) {
    server = await ownRedis({ args: ['--dir', dir, ...args] });
    await server.start();
    const redis = new Redis(server.url);
    try {
      return await readDurabilityFacts(redis);
    } finally {
      redis.disconnect();
    }
  }

  it('reads persistence off and the policy from CONFIG', async () => {
    const facts = await factsOf(['--maxmemory-policy', 'allkeys-lru']);
    expect(facts).toMatchObject({ appendonly: false, save: '', policy: 'allkeys-lru' });
    expect(assessDurability(facts).status).toBe('unsafe');
  });

  it('reads the append-only file and volatile-lru as ok', async () => {
    const facts = await factsOf([
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory',
      '4mb',
      '--maxmemory-policy',
      'volatile-lru',
    ]);
    expect(facts).toMatchObject({ appendonly: true, appendfsync: 'everysec', policy: 'volatile-lru', maxmemory: 4 * 1024 * 1024 });
    expect(assessDurability(facts).status).toBe('ok');
  });

  it('falls back to INFO when CONFIG is disabled (managed Redis), and says what it could not check', async () => {
    const facts = await factsOf(['--rename-command', 'CONFIG', '']);
    expect(facts.configRefused).toMatch(/unknown command/i);
    expect(facts).toMatchObject({ appendonly: false, policy: 'noeviction' });
    expect(facts.save).toBeUndefined();
    expect(assessDurability(facts).status).toBe('unknown');
  });

  it('logs one warning line once the Redis it waits for comes up', async () => {
    server = await ownRedis({ args: ['--dir', dir] });
    const lines: { level: string; message: string }[] = [];
    const logger = {
      info: (_fields: object, message: string) => void lines.push({ level: 'info', message }),
      warn: (_fields: object, message: string) => void lines.push({ level: 'warn', message }),
    };
    const stop = watchRedisDurability(server.url, logger);
    try {
      await server.start();
      await waitFor(() => lines.length > 0, 10_000);
      expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^redis cannot keep accounts safely: persistence is off/) }]);
    } finally {
      stop();
    }
  });

  it('logs ok at info', () => {
    const lines: string[] = [];
    const logger = {
      info: (_f: object, m: string) => void lines.push(`info ${m}`),
      warn: (_f: object, m: string) => void lines.push(`warn ${m}`),
    };
    logDurability(logger, { status: 'ok', problems: [], notes: [] }, {});
    expect(lines).toEqual(['info redis keeps durable data: persistence on, no eviction of keys without a TTL']);
  });
});
