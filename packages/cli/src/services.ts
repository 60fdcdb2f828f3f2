/**
 * The four services as local processes: which file each runs and which port it gets. Shared by
 * the `npm start` launcher and the integration tests' stack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '@tern/shared/config/paths';
import { HEALTH_PATH, READY_PATH } from '@tern/shared/url-space/health';
import { imageAllocatorEnv } from './allocator.js';

export const SERVICE_NAMES = ['gateway', 'renderer', 'image', 'icons'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The gateway takes the base port; the others the next three, in this order. */
export const PORT_OFFSETS: Record<ServiceName, number> = { gateway: 0, renderer: 1, image: 2, icons: 3 };

const require = createRequire(import.meta.url);

/**
 * True in the platform's checkout (its sources compiled there, `tern dev` watching them), false
 * where the packages were installed under a site's node_modules (compiled when they were packed).
 */
export const platformFromSource = !fileURLToPath(import.meta.url).includes(`${sep}node_modules${sep}`);

/**
 * A service's compiled module, found as Node finds the package (services/* in the checkout, the
 * site's node_modules where it is installed); by its package.json, so no export condition applies.
 */
export function serviceModule(name: ServiceName, module: string): string {
  return join(dirname(require.resolve(`@tern/${name}/package.json`)), 'dist', `${module}.js`);
}

export function serviceEntry(name: ServiceName): string {
  return serviceModule(name, 'main');
}

/** The environment each service gets: its own PORT and the addresses of the others. */
export function serviceEnv(name: ServiceName, basePort: number, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const host = env.HOST ?? '127.0.0.1';
  const url = (service: ServiceName) => `http://127.0.0.1:${basePort + PORT_OFFSETS[service]}`;
  return {
    ...env,
    HOST: host,
    PORT: String(basePort + PORT_OFFSETS[name]),
    RENDERER_URL: env.RENDERER_URL ?? url('renderer'),
    IMAGE_URL: env.IMAGE_URL ?? url('image'),
    ICONS_URL: env.ICONS_URL ?? url('icons'),
    LOG_FORMAT: env.LOG_FORMAT ?? 'json',
    // sharp's freed buffers go back to the kernel after a burst (bench/image-memory.ts), and so
    // do the renderer's after a burst of renders (glibc kept about 25 MB more of them).
    ...(name === 'image' || name === 'renderer' ? imageAllocatorEnv(env) : {}),
  };
}

/**
 * V8 settings per service (docs/decisions/performance.md, memory). A smaller young generation than
 * V8's 2 x 16 MB, which it grows to under load in every service: the renderer's renders are
 * short-lived, the image and icons services' garbage is mostly outside the heap. The gateway's is
 * 2 x 4 MB: at 2 MB its hits' objects still in flight at a scavenge were promoted and collected again
 * in full collections (a hit cost 12 % more CPU); at 8 MB a proxied page compressed on the way
 * cost 20 % more (docs/decisions/performance.md, stop 41). --expose-gc is for
 * packages/shared/src/process/idle-gc.ts, which gives the old generation's empty pages and the young
 * generation's growth back once a burst is over.
 */
export const NODE_FLAGS: Record<ServiceName, string[]> = {
  gateway: ['--max-semi-space-size=4', '--expose-gc'],
  renderer: ['--max-semi-space-size=4', '--expose-gc'],
  image: ['--max-semi-space-size=2', '--expose-gc'],
  icons: ['--max-semi-space-size=2', '--expose-gc'],
};

/**
 * `output: 'inherit'` gives the service the caller's own stdout and stderr: its JSON lines reach
 * them with no relaying at all (packages/shared/src/logging/log-destination.ts keeps each write whole); 'pipe' hands
 * them to the caller.
 */
export function spawnService(
  name: ServiceName,
  basePort: number,
  env: NodeJS.ProcessEnv,
  output: 'pipe' | 'inherit' = 'pipe',
): ChildProcess {
  return spawn(process.execPath, [...NODE_FLAGS[name], serviceEntry(name)], {
    cwd: projectRoot,
    env: serviceEnv(name, basePort, env),
    stdio: ['ignore', output, output],
  });
}

/** Whether `url` answers 200 within `timeoutMs`; node:http, so the launcher never loads fetch (undici, 10 MB of RSS). */
function answersOk(url: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(false));
  });
}

/** Resolves when `url` answers 200, or rejects after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await answersOk(url, 1000)) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Until every service of a stack on `basePort` is alive and the gateway ready: the gateway alone is
 * ready (degraded) before the renderer listens, since it can serve its cached pages without it.
 */
export async function waitForStack(basePort: number, timeoutMs = 30_000, host = '127.0.0.1'): Promise<void> {
  await Promise.all(SERVICE_NAMES.map((name) => waitForOk(`http://${host}:${basePort + PORT_OFFSETS[name]}${HEALTH_PATH}`, timeoutMs)));
  await waitForOk(`http://${host}:${basePort}${READY_PATH}`, timeoutMs);
}
