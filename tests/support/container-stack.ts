/**
 * The same stack from docker-compose.yml through Testcontainers, for machines with a container
 * engine. `containerRuntimeReason()` says why it cannot run here, so suites print it and skip;
 * where an engine answers the suites run, never skip, and never pull from a registry:
 *  - the base images come from scripts/containers/stand-in-images.sh (pulled, or stand-ins built);
 *  - the service images are built once per test process (`docker-compose build`, cached layers);
 *  - Testcontainers' Ryuk is off (its image cannot be pulled either): every stack removes itself
 *    in `stop()`, and on process exit if a suite never got there;
 *  - compose is Debian's standalone `docker-compose` (v1) when the `docker compose` plugin is absent.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DockerComposeEnvironment, getContainerRuntimeClient, Wait } from 'testcontainers';
import { afterAll, beforeAll } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { waitFor } from './wait-for.js';
import { PORT_OFFSETS, type ServiceName } from '@tern/cli/services';
import { findFreeBasePort } from '@tern/cli/ports';
import type { Stack, StackOptions } from '@tern/cli/stack-types';

process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';

const run = promisify(execFile);

/** Runs `docker …`; resolves with its stdout. */
export async function docker(args: string[]): Promise<string> {
  return (await run('docker', args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
}

export type ComposeService = ServiceName | 'redis';

export interface ContainerStackOptions extends StackOptions {
  /** Replicas per service (`up --scale renderer=3`). */
  scale?: Partial<Record<ComposeService, number>>;
}

export interface ContainerStack extends Stack {
  /** The compose project: `docker-compose -p <project>`. */
  project: string;
  /** Runs `docker-compose -p <project> …` in the project root; resolves with its stdout. */
  compose(args: string[]): Promise<string>;
  /** The ids of a service's running containers, oldest replica first. */
  containers(service: ComposeService): Promise<string[]>;
  /** The host PID of a container's main process (`docker inspect -f {{.State.Pid}}`). */
  pid(container: string): Promise<number>;
  /** What a service's containers printed so far. */
  containerLogs(service: ComposeService): Promise<string>;
  /** Runs redis-cli inside the Redis container. */
  redisCli(args: string[]): Promise<string>;
  /** `docker-compose exec -T <service> …` with `input` on its stdin; resolves with the exit code and output. */
  exec(service: ComposeService, command: string[], input?: string): Promise<{ code: number | null; out: string }>;
  /** The compose network's name, for a container started beside the project's (`docker run --network`). */
  network: string;
}

/** Null when a container engine answers, otherwise the reason it does not. */
export async function containerRuntimeReason(): Promise<string | null> {
  if (process.env.CONTAINER_TESTS === 'off') return 'turned off (CONTAINER_TESTS=off)';
  try {
    await getContainerRuntimeClient();
    return null;
  } catch (error) {
    return `no container engine: ${(error as Error).message.split('\n')[0]}`;
  }
}

/** `docker compose` (v2 plugin) where installed, else the standalone `docker-compose` (v1). */
const composeCommand: [string, ...string[]] =
  spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0 ? ['docker', 'compose'] : ['docker-compose'];

function compose(project: string, args: string[]): Promise<string> {
  const [command, ...first] = composeCommand;
  return run(command, [...first, '-p', project, ...args], { cwd: projectRoot, maxBuffer: 64 * 1024 * 1024 }).then(({ stdout }) => stdout);
}

function composeWithInput(project: string, args: string[], input: string): Promise<{ code: number | null; out: string }> {
  const [command, ...first] = composeCommand;
  const child = spawn(command, [...first, '-p', project, ...args], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

let imagesBuilt: Promise<void> | undefined;

/** The base images (or their stand-ins), then the four service images: once per test process. */
export function buildImages(): Promise<void> {
  imagesBuilt ??= (async () => {
    const script = join(projectRoot, 'scripts/containers/stand-in-images.sh');
    await run('bash', [script], { cwd: projectRoot });
    await compose('cookbook-build', ['build', '-q']);
  })();
  return imagesBuilt;
}

const running = new Set<string>();
// Without Ryuk nothing else removes a stack whose suite died before its afterAll.
process.once('exit', () => {
  for (const project of running)
    spawnSync(composeCommand[0], [...composeCommand.slice(1), '-p', project, 'down', '-v', '-t', '0'], {
      cwd: projectRoot,
      stdio: 'ignore',
    });
});

export async function startContainerStack(options: ContainerStackOptions = {}): Promise<ContainerStack> {
  await buildImages();
  const port = await findFreeBasePort(1);
  const project = `cookbook-test-${randomUUID().slice(0, 8)}`;
  const scale = Object.entries(options.scale ?? {}).flatMap(([name, count]) => ['--scale', `${name}=${count}`]);
  running.add(project);
  const environment = await new DockerComposeEnvironment(projectRoot, 'docker-compose.yml')
    .withProjectName(project)
    .withClientOptions({
      ...(composeCommand[0] === 'docker-compose' ? { executable: { standalone: true as const } } : {}),
      commandOptions: scale,
    })
    .withEnvironment({ GATEWAY_PORT: String(port), ...options.env })
    // Every container of the file has a HEALTHCHECK; compose already waits on them in order.
    .withDefaultWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(180_000)
    .up();

  const containers = async (service: ComposeService): Promise<string[]> => {
    const filters = [`label=com.docker.compose.project=${project}`, `label=com.docker.compose.service=${service}`];
    const { stdout } = await run('docker', ['ps', '-q', '--no-trunc', ...filters.flatMap((filter) => ['--filter', filter])]);
    const ids = stdout.split('\n').filter(Boolean);
    if (ids.length === 0) return [];
    const { stdout: numbers } = await run('docker', [
      'inspect',
      '-f',
      '{{index .Config.Labels "com.docker.compose.container-number"}} {{.Id}}',
      ...ids,
    ]);
    return numbers
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string])
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map(([, id]) => id);
  };
  const first = async (service: ComposeService): Promise<string> => {
    const [id] = await containers(service);
    if (id) return id;
    // A stopped container is not in `docker ps`: ask compose for every one of the service.
    const all = (await compose(project, ['ps', '-q', service])).split('\n').filter(Boolean);
    if (!all[0]) throw new Error(`no ${service} container in ${project}`);
    return all[0];
  };
  const url = `http://127.0.0.1:${port}`;

  return {
    mode: 'containers',
    project,
    url,
    // Only the gateway is published; the others are reached through it.
    serviceUrl: (name) => (name === 'gateway' ? url : `http://${name}:${3000 + PORT_OFFSETS[name]}`),
    async startService(name) {
      await compose(project, ['start', name]);
      await waitHealthy(await first(name));
    },
    async stopService(name, signal = 'SIGTERM') {
      const id = await first(name);
      // `stop` marks it stopped by hand, so the restart policy leaves it down until startService.
      if (signal === 'SIGTERM') await run('docker', ['stop', id]);
      else await run('docker', ['kill', '--signal', signal, id]).then(() => run('docker', ['stop', id]));
      const { stdout } = await run('docker', ['inspect', '-f', '{{.State.ExitCode}}', id]);
      return Number(stdout.trim());
    },
    redisUrl: undefined,
    redisPrefix: undefined,
    buildStoreDir: undefined,
    logs: () => [],
    compose: (args) => compose(project, args),
    containers,
    async pid(container) {
      const { stdout } = await run('docker', ['inspect', '-f', '{{.State.Pid}}', container]);
      return Number(stdout.trim());
    },
    containerLogs: (service) => compose(project, ['logs', '--no-color', service]),
    redisCli: (args) => compose(project, ['exec', '-T', 'redis', 'redis-cli', ...args]),
    exec: (service, command, input = '') => composeWithInput(project, ['exec', '-T', service, ...command], input),
    network: `${project}_default`,
    async stop() {
      await environment.down({ removeVolumes: true, timeout: 0 });
      running.delete(project);
    },
  };
}

/** Waits for a container's HEALTHCHECK to pass, as the local stack waits for /healthz. */
export async function waitHealthy(id: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    async () => (await run('docker', ['inspect', '--format', '{{.State.Health.Status}}', id])).stdout.trim() === 'healthy',
    timeoutMs,
    250,
  );
}

/**
 * The compose stack for one test file, as stackForFile is for the local one: started before its
 * tests (images built first where needed), removed after them.
 */
export function containerStackForFile(options: ContainerStackOptions = {}): { readonly url: string; readonly running: ContainerStack } {
  let stack: ContainerStack | undefined;
  beforeAll(async () => {
    stack = await startContainerStack(options);
  }, 600_000);
  afterAll(async () => {
    await stack?.stop();
  });
  const running = (): ContainerStack => {
    if (!stack) throw new Error('containerStackForFile: the stack is not running (used outside a test?)');
    return stack;
  };
  return {
    get url() {
      return running().url;
    },
    get running() {
      return running();
    },
  };
}
