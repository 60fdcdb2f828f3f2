import { afterEach, describe, expect, it } from 'vitest';
import { protectedModeRedis } from '../../../../tests/support/redis-stand-ins.js';
import { openRedis, redisFailureReason, redisState } from './connection.js';
import { redactRedisUrl } from './redis-url.js';
import { freePort } from '../../../../tests/support/free-port.js';
import { ownRedis } from '../../../../tests/support/redis.js';
import { waitFor } from '../../../../tests/support/wait-for.js';

interface Line {
  level: 'info' | 'warn';
  fields: Record<string, unknown>;
  message: string;
}

function capture() {
  const lines: Line[] = [];
  const log = {
    info: (fields: object, message: string) => void lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
    warn: (fields: object, message: string) => void lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
  };
  return { lines, log };
}

describe('the Redis connection factory', () => {
  const closers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('keeps the password out of the URL it logs', () => {
    expect(redactRedisUrl('redis://:s3cret@redis:6379/0')).toBe('redis://:***@redis:6379/0');
    expect(redactRedisUrl('rediss://app:s3cret@redis.example.com:6380')).toBe('rediss://app:***@redis.example.com:6380');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it("says ioredis's timeouts in plain words", () => {
    const options = { connectTimeout: 1000, commandTimeout: 500 };
    expect(redisFailureReason(new Error('connect ETIMEDOUT'), options)).toBe('connect timed out after 1000 ms');
    expect(redisFailureReason(new Error('Command timed out'), options)).toMatch(/^connected, but no reply within 500 ms/);
    expect(redisFailureReason(new Error('connect ECONNREFUSED 127.0.0.1:1'), options)).toBe('connect ECONNREFUSED 127.0.0.1:1');
  });

  it("logs protected mode's own DENIED answer, which ioredis would otherwise swallow, once and then with backoff", async () => {
    const standIn = await protectedModeRedis();
    closers.push(() => standIn.close());
    const { lines, log } = capture();
    const client = openRedis(standIn.url, { log, firstLogIntervalMs: 200 });
    closers.push(() => client.disconnect());
    const second = openRedis(standIn.url, { log, firstLogIntervalMs: 200 });
    closers.push(() => second.disconnect());
    await waitFor(() => lines.length >= 2, 5000);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { redis: standIn.url.replace(/\/?$/, '') } });
    expect(lines[0]!.message).toContain('DENIED Redis is running in protected mode');
    expect(redisState(client)).toMatchObject({ ready: false, reason: expect.stringMatching(/^DENIED/) });
    // Two clients retrying every 200-400 ms, one line per doubling interval for both.
    await waitFor(() => lines.length >= 3, 5000);
    const at = lines.map((line) => Number(line.fields.downMs));
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(200);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(400);
    expect(Number(lines.at(-1)!.fields.failures)).toBeGreaterThanOrEqual(lines.length);
  });

  it('says once that Redis answers again', async () => {
    const port = await freePort();
    const { lines, log } = capture();
    const client = openRedis(`redis://127.0.0.1:${port}`, { log });
    closers.push(() => client.disconnect());
    await waitFor(() => lines.some((line) => String(line.fields.reason).includes('ECONNREFUSED')), 5000);
    const redis = await ownRedis({ port });
    closers.push(() => redis.stop());
    await redis.start();
    await waitFor(() => lines.some((line) => line.level === 'info' && line.message.includes('answers again')), 10_000);
    expect(redisState(client)).toEqual({ ready: true, reason: null });
    expect(await client.ping()).toBe('PONG');
  });
});
