/**
 * `npm run builds -- list` and `npm run builds -- promote <id>`: the builds the store remembers,
 * in the order they were first published, and the operator's rollback on purpose. A restarted
 * renderer of an older build never makes its build current again (docs/decisions/skew-protection.md,
 * "No rollback by restart"); `promote` does, and the promoted build then stays current until a
 * build is newly published, even when renderers of the newer one restart. Same store as the
 * services: Redis when REDIS_URL is set, files under BUILD_STORE_DIR otherwise.
 */
import { createBuildStore } from '@tern/shared/build-store';
import { loadConfig, storeFields } from '@tern/shared/config/service-config';
import { defaultBuildStoreDir } from '@tern/shared/config/paths';

const USAGE = 'usage: npm run builds -- list | promote <build id>';

const config = loadConfig('builds', storeFields(defaultBuildStoreDir));
const [command, id, ...rest] = process.argv.slice(2);
if (rest.length > 0 || !((command === 'list' && !id) || (command === 'promote' && id))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const store = createBuildStore({ redisUrl: config.REDIS_URL, redisPrefix: config.REDIS_PREFIX, dir: config.BUILD_STORE_DIR });
const where = config.REDIS_URL ? `Redis, prefix ${config.REDIS_PREFIX}` : config.BUILD_STORE_DIR;
try {
  if (command === 'list') {
    const [builds, current] = await Promise.all([store.builds(), store.current()]);
    if (builds.length === 0) process.stdout.write(`no build published yet (${where})\n`);
    for (const build of builds) {
      const marks = [build.id === current?.id ? 'current' : '', build.kept ? '' : 'meta gone, cannot be promoted'].filter(Boolean);
      process.stdout.write(
        `${build.id}  built ${new Date(build.timestamp).toISOString()}${marks.length ? `  (${marks.join(', ')})` : ''}\n`,
      );
    }
  } else if (await store.promote(id!)) {
    process.stdout.write(`build ${id} is current (${where}); it stays current until a build is newly published\n`);
  } else {
    process.stderr.write(`build ${id} cannot be promoted: the store keeps no meta for it (npm run builds -- list)\n`);
    process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`builds ${command} failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await store.close();
}
