/** The image service process: config, logger, app, listen. */
import { cpus } from 'node:os';
// sharp jobs share libuv's pool with fs and dns: leave them threads to spare (read at first use).
process.env.UV_THREADPOOL_SIZE ??= String(Math.max(4, cpus().length + 2));

const { createLogger } = await import('@tern/shared/logging/logger');
const { listen, listenOptionsOf } = await import('@tern/shared/http/service');
const { readImageConfig } = await import('./config.js');
const { buildImageApp } = await import('./app.js');
const { applyLibvipsLimits } = await import('./libvips.js');

const config = readImageConfig();
applyLibvipsLimits({ cacheMb: config.IMAGE_LIBVIPS_CACHE_MB, threads: config.IMAGE_LIBVIPS_THREADS });
const logger = createLogger({ service: 'image', level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeEnv: config.NODE_ENV });
const { app } = await buildImageApp(config, { logger });
await listen(app, listenOptionsOf(config));
logger.info({ dir: config.IMAGE_DIR, cache: config.IMAGE_CACHE_DIR, concurrency: config.IMAGE_CONCURRENCY }, 'image service ready');
