import { existsSync } from 'node:fs';
/**
 * The stack as `npm start` runs it: the launcher (packages/cli/src/launch.ts) and its four children, its
 * output read from a pipe as a log collector would, with the pids of every process for CPU and
 * RSS figures. Its own ports and folders; no NODE_ENV unless given, as in the README.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '@tern/shared/config/paths';
import { findFreeBasePort } from '@tern/cli/ports';
import { launcherNodeFlags } from '@tern/cli/launcher-flags';
import { PORT_OFFSETS, SERVICE_NAMES, waitForStack, type ServiceName } from '@tern/cli/services';
import { childrenOf } from './process-cpu.js';

export interface LaunchedStack {
  url: string;
  serviceUrl(name: ServiceName): string;
  /** The launcher's pid and each service's. */
  pids: Record<ServiceName | 'launcher', number>;
  /** Bytes the launcher wrote to its stdout and stderr. */
  outputBytes(): number;
  stop(): Promise<void>;
}

/** `root`: the checkout whose build runs (another one's, for a baseline measured in the same run). */
export async function startLaunchedStack(env: NodeJS.ProcessEnv, root = projectRoot): Promise<LaunchedStack> {
  const port = await findFreeBasePort();
  const dir = await mkdtemp(join(tmpdir(), 'bench-stack-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    BUILD_STORE_DIR: join(dir, 'build-store'),
    IMAGE_CACHE_DIR: join(dir, 'image-cache'),
    CACHE_DIR: join(dir, 'render-cache'),
    ...env,
  };
  for (const name of ['REDIS_URL', 'NODE_ENV'] as const) if (!(name in env)) delete childEnv[name];
  // A baseline checkout from before the workspace layout has its launcher under dist/node/scripts/.
  const workspaceLauncher = join(root, 'packages', 'cli', 'dist', 'launch.js');
  const launcherFile = existsSync(workspaceLauncher) ? workspaceLauncher : join(root, 'dist', 'node', 'scripts', 'launch.js');
  const launcher: ChildProcess = spawn(process.execPath, [...launcherNodeFlags(), launcherFile], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  for (const stream of [launcher.stdout!, launcher.stderr!]) stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (launcher.exitCode === null && launcher.signalCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForStack(port, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const children = childrenOf(launcher.pid!);
  const pidOf = (name: ServiceName) => {
    const found = children.find((child) => child.cmdline.includes(`/services/${name}/dist/main.js`));
    if (!found) throw new Error(`no ${name} process under the launcher`);
    return found.pid;
  };
  const pids = Object.fromEntries([
    ['launcher', launcher.pid!],
    ...SERVICE_NAMES.map((name) => [name, pidOf(name)]),
  ]) as LaunchedStack['pids'];
  return {
    url,
    serviceUrl: (name) => `http://127.0.0.1:${port + PORT_OFFSETS[name]}`,
    pids,
    outputBytes: () => bytes,
    stop,
  };
}
