/**
 * The Redis of local stacks (tests and benchmarks: TEST_REDIS_URL, or the one on 6379) and the
 * removal of one run's keys when it stops.
 */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Deletes every key under a test's own prefix. */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  // A test that killed its Redis still cleans up: the failure is the caller's to ignore.
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
