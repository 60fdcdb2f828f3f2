/**
 * The servers the icon benchmark measures, each in its own process so the load generator does
 * not share their event loop: `hello` (a Fastify hello world), `service` (a hello world on the
 * services' shared bootstrap: request id, access line, hooks) or `icons` (the real service with
 * the site's sets preloaded). Sends its port to the parent over IPC once ready.
 */
import Fastify from 'fastify';
import { createLogger } from '@tern/shared/logging/logger';
import { createService } from '@tern/shared/http/service';
import { buildIconsApp } from '@tern/icons/app';
import { readCatalogue } from '@tern/icons/catalogue';
import { parseIconsConfig } from '@tern/icons/config';

async function startHello(): Promise<number> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

async function startServiceHello(): Promise<number> {
  const app = createService({
    name: 'icons',
    logger: createLogger({ service: 'icons', level: 'info', format: 'json' }),
    production: true,
  });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

async function startIcons(): Promise<number> {
  // The service's own defaults (preload, limit), with room for the cold-load runs.
  const config = parseIconsConfig({
    ...process.env,
    NODE_ENV: 'production',
    ICONS_MEMORY_LIMIT_MB: process.env.ICONS_MEMORY_LIMIT_MB ?? '1024',
  });
  const { app, preloaded } = await buildIconsApp(config, {
    // Access lines at info level, as in production; the parent sends stdout to /dev/null.
    logger: createLogger({ service: 'icons', level: 'info', format: 'json' }),
    catalogue: await readCatalogue(),
    // bench/icons-cold.ts compares with a directory that has no indexes (whole-file loads).
    ...(process.env.BENCH_ICON_INDEX_DIR ? { indexDir: process.env.BENCH_ICON_INDEX_DIR } : {}),
  });
  await preloaded;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

const kind = process.argv[2];
const starters: Record<string, () => Promise<number>> = { hello: startHello, service: startServiceHello, icons: startIcons };
const start = kind === undefined ? undefined : starters[kind];
if (!start) throw new Error('usage: icons-server.js hello|service|icons');
const port = await start();
process.send?.({ port });
process.on('disconnect', () => process.exit(0));
