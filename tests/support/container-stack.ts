/**
 * The same stack from docker-compose.yml through Testcontainers, for machines with a container
 * runtime. `containerRuntimeReason()` says why it cannot run here, so suites print it and skip.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DockerComposeEnvironment, getContainerRuntimeClient, Wait } from 'testcontainers';
import { projectRoot } from '../../lib/paths.js';
import { PORT_OFFSETS, type ServiceName } from '../../scripts/services.js';
import { findFreeBasePort } from '../../scripts/ports.js';
import type { Stack, StackOptions } from '../../scripts/stack-types.js';

const run = promisify(execFile);

/** Null when a container runtime answers, otherwise the reason it does not. */
export async function containerRuntimeReason(): Promise<string | null> {
  try {
    await getContainerRuntimeClient();
    return null;
  } catch (error) {
    return `no container runtime: ${(error as Error).message.split('\n')[0]}`;
  }
}

/** Waits for a container's HEALTHCHECK to pass, as the local stack waits for /healthz. */
async function waitHealthy(id: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { stdout } = await run('docker', ['inspect', '--format', '{{.State.Health.Status}}', id]);
    if (stdout.trim() === 'healthy') return;
    if (Date.now() - started > timeoutMs) throw new Error(`container ${id} not healthy within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function startContainerStack(options: StackOptions = {}): Promise<Stack> {
  const port = await findFreeBasePort(1);
  const environment = await new DockerComposeEnvironment(projectRoot, 'docker-compose.yml')
    .withBuild()
    .withEnvironment({ GATEWAY_PORT: String(port), ...options.env })
    .withWaitStrategy('gateway-1', Wait.forHealthCheck())
    .withStartupTimeout(300_000)
    .up();
  const container = (name: ServiceName) => environment.getContainer(`${name}-1`);
  return {
    mode: 'containers',
    url: `http://127.0.0.1:${port}`,
    // Only the gateway is published; the others are reached through it.
    serviceUrl: (name) => (name === 'gateway' ? `http://127.0.0.1:${port}` : `http://${name}:${3000 + PORT_OFFSETS[name]}`),
    async startService(name) {
      const id = container(name).getId();
      await run('docker', ['start', id]);
      await waitHealthy(id);
    },
    async stopService(name, signal = 'SIGTERM') {
      await run('docker', ['kill', '--signal', signal, container(name).getId()]);
      const { stdout } = await run('docker', ['wait', container(name).getId()]);
      return Number(stdout.trim());
    },
    redisUrl: undefined,
    redisPrefix: undefined,
    buildStoreDir: undefined,
    logs: () => [],
    async stop() {
      await environment.down({ removeVolumes: true });
    },
  };
}
