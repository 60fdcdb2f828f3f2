/**
 * `npm run dev`: the same four services and URLs as `npm start`, for editing, for the site SITE
 * names (default apps/cookbook/src/site.ts; any folder, inside the project or not). TypeScript is transpiled
 * again on save (esbuild's watch, packages/cli/src/compile-server.mjs; types are `npm run typecheck`'s)
 * and each service restarts when its compiled code changes (`node --watch`); the renderer serves
 * the app through Vite with hot module replacement, rebuilds the site's data when its sources
 * change, and restarts itself when the site's server part changes (a new route). Each site
 * keeps its state in folders of its own (packages/cli/src/dev-site.ts). Embedded store by default.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig, port, z } from '@tern/shared/config/service-config';
import { projectRoot } from '@tern/shared/config/paths';
import { HEALTH_PATH } from '@tern/shared/url-space/health';
import { devSiteOf } from './dev-site.js';
import { pipeTagged, tag } from './log-lines.js';
import {
  platformFromSource,
  PORT_OFFSETS,
  serviceEntry,
  serviceEnv,
  serviceModule,
  SERVICE_NAMES, waitForOk, waitForStack, type ServiceName } from './services.js';

const config = loadConfig('dev', {
  PORT: port(3000),
  REDIS_URL: z.string().url('expected a redis:// URL').optional(),
});

const site = devSiteOf(process.env);
const color = Boolean(process.stdout.isTTY);
const say = (message: string) => process.stdout.write(`${tag('dev', color)} ${message}\n`);
const children = new Map<string, ChildProcess>();
let stopping = false;

/** The renderer runs its development entry (Vite in middleware mode); the others their usual one. */
function entryOf(name: ServiceName): string {
  return name === 'renderer' ? serviceModule('renderer', 'dev') : serviceEntry(name);
}

function startService(name: ServiceName): void {
  const env = serviceEnv(name, config.PORT, { ...process.env, ...site.env, NODE_ENV: 'development', LOG_FORMAT: 'json' });
  // --watch restarts the process when a file it imported changes (esbuild rewrites only what changed).
  const child = spawn(process.execPath, ['--watch', '--watch-preserve-output', entryOf(name)], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(name, child);
  pipeTagged(name, child.stdout!, process.stdout);
  pipeTagged(name, child.stderr!, process.stderr);
}

function startCompiler(): void {
  const script = fileURLToPath(new URL('../src/compile-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, '--watch'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.set('compile', child);
  pipeTagged('compile', child.stdout!, process.stdout);
  pipeTagged('compile', child.stderr!, process.stderr);
}

function stopAll(): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  const left = [...children.values()].filter((child) => child.exitCode === null && child.signalCode === null);
  let remaining = left.length;
  if (remaining === 0) process.exit(0);
  for (const child of left) child.once('exit', () => --remaining === 0 && process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
}

/**
 * The renderer first: it publishes this site's development build and writes its site.json before
 * it listens, so the gateway's first build is this site's and every service reads its defaults.
 */
async function startStack(): Promise<void> {
  startService('renderer');
  const rendererUp = `http://127.0.0.1:${config.PORT + PORT_OFFSETS.renderer}${HEALTH_PATH}`;
  await waitForOk(rendererUp, 120_000).catch((error: Error) => say(`the renderer is not up yet: ${error.message}`));
  for (const name of SERVICE_NAMES.filter((name) => name !== 'renderer')) startService(name);
}

say(`site: ${site.file} (state in ${site.dir})`);
say(`store: ${config.REDIS_URL ? `Redis at ${config.REDIS_URL}` : `embedded (files under ${site.env.BUILD_STORE_DIR})`}`);
// An installed platform was compiled when it was packed: only its own checkout has sources to watch.
if (platformFromSource) startCompiler();
process.once('SIGINT', stopAll);
process.once('SIGTERM', stopAll);

const started = Date.now();
void startStack();
waitForStack(config.PORT, 180_000).then(
  () => say(`ready at http://localhost:${config.PORT} in ${((Date.now() - started) / 1000).toFixed(1)} s (save a file to see it change)`),
  (error: Error) => say(`not ready yet: ${error.message}`),
);
