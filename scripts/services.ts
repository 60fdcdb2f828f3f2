/**
 * The four services as local processes: which file each runs and which port it gets. Shared by
 * the `npm start` launcher and the integration tests' stack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../lib/paths.js';
import { imageAllocatorEnv } from './allocator.js';

export const SERVICE_NAMES = ['gateway', 'renderer', 'image', 'icons'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The gateway takes the base port; the others the next three, in this order. */
export const PORT_OFFSETS: Record<ServiceName, number> = { gateway: 0, renderer: 1, image: 2, icons: 3 };

export function serviceEntry(name: ServiceName): string {
  return join(projectRoot, 'dist', 'node', 'services', name, 'src', 'main.js');
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
    // sharp's freed buffers go back to the kernel after a burst (bench/image-memory.ts).
    ...(name === 'image' ? imageAllocatorEnv(env) : {}),
  };
}

export function spawnService(name: ServiceName, basePort: number, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [serviceEntry(name)], {
    cwd: projectRoot,
    env: serviceEnv(name, basePort, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves when `url` answers 200, or rejects after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
