/** Starts the icon service: config, logger, the collection list, the preloaded sets, listen. */
import { createLogger } from '@tern/shared/logging/logger';
import { listen, listenOptionsOf } from '@tern/shared/http/service';
import { buildIconsApp } from './app.js';
import { DEFAULT_ICON_INDEX_DIR } from './icon-index.js';
import { readCatalogue } from './catalogue.js';
import { preloadedSetsWithoutIndex } from './index-notice.js';
import { readIconsConfig } from './config.js';

const config = readIconsConfig();
const logger = createLogger({ service: 'icons', level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeEnv: config.NODE_ENV });
const catalogue = await readCatalogue();
const unknown = config.ICONS_PRELOAD.filter((prefix) => !catalogue.has(prefix));
if (unknown.length > 0) {
  process.stderr.write(
    `icons: invalid configuration: ICONS_PRELOAD: expected collections of @iconify/json ${catalogue.version} (unknown: ${unknown.join(', ')})\n`,
  );
  process.exit(1);
}

const { app, preloaded, sets } = await buildIconsApp(config, { logger, catalogue });

const unindexed = preloadedSetsWithoutIndex(config.ICONS_PRELOAD, DEFAULT_ICON_INDEX_DIR);
if (unindexed.length > 0) {
  // Still correct, but each cold set is then parsed whole (up to 100 MB) whenever the LRU dropped it.
  logger.warn({ indexDir: DEFAULT_ICON_INDEX_DIR, sets: unindexed }, 'no index for the preloaded icon sets: run npm run build:icons');
}

const started = Date.now();
// /readyz answers 503 until this settles; /healthz answers at once.
preloaded.then(
  () => {
    const cache = sets.cache.stats();
    logger.info({ preload: config.ICONS_PRELOAD, ms: Date.now() - started, cache }, 'icon sets preloaded');
    // Pinned sets are kept regardless; other sets then get no room and are reloaded on every request.
    if (cache.bytes > cache.limitBytes)
      logger.warn({ bytes: cache.bytes, limitBytes: cache.limitBytes }, 'preloaded icon sets exceed ICONS_MEMORY_LIMIT_MB');
  },
  (error: unknown) => {
    logger.fatal({ err: error }, 'preloading icon sets failed');
    process.exit(1);
  },
);

await listen(app, listenOptionsOf(config));
