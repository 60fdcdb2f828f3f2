/**
 * `npm run cache -- purge [pattern]`: empties render-cache entries whose path matches the pattern
 * (`*` any characters; all when omitted) in the store the gateways share (Redis when REDIS_URL is
 * set, files under CACHE_DIR otherwise); every gateway drops its memory copies too. A new build
 * needs none of this: its entries are keyed by its own build id.
 */
import { join } from 'node:path';
import { loadConfig, redisFields, z } from '@tern/shared/config/service-config';
import { buildDir } from '@tern/shared/config/paths';
import { createFileCacheStore } from '@tern/gateway/render-cache/file-store';
import { createRedisCacheStore } from '@tern/gateway/render-cache/redis-store';

const USAGE = 'usage: npm run cache -- purge [pattern]   (pattern: a path, * matches anything; e.g. /category/*)';

const config = loadConfig('cache', {
  ...redisFields(),
  CACHE_DIR: z.string().min(1).default(join(buildDir, 'render-cache')),
});

const [command, pattern = '*', ...rest] = process.argv.slice(2);
if (command !== 'purge' || rest.length > 0 || !(pattern === '*' || pattern.startsWith('/'))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const store = config.REDIS_URL
  ? createRedisCacheStore(config.REDIS_URL, config.REDIS_PREFIX, 5000, { queueWhileConnecting: true })
  : createFileCacheStore(config.CACHE_DIR);
try {
  const removed = await store.purge(pattern);
  process.stdout.write(`purged ${removed} cached ${removed === 1 ? 'entry' : 'entries'} matching ${pattern} (${store.kind} store)\n`);
} catch (error) {
  process.stderr.write(`cache purge failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await store.close();
}
