/**
 * The Kubernetes manifests (deploy/k8s) against the schemas and against the services themselves:
 * every object validates, every variable a service's config.ts reads is set or defaulted and every
 * value set parses, ports and probe paths are the ones the services listen on and register, and
 * the images are the Dockerfile's targets. The plain files are always checked; the rendered
 * overlays need kubectl (skipped, with the reason printed, where it is absent).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createService } from '@tern/shared/http/service';
import { createLogger } from '@tern/shared/logging/logger';
import { assessDurability, readDurabilityFacts } from '@tern/shared/redis/durability';
import { ownRedis, redisServerInstalled } from '../support/redis.js';
import { gatewayConfigShape } from '@tern/gateway/config';
import { iconsConfigShape } from '@tern/icons/config';
import { imageConfigShape } from '@tern/image/config';
import { rendererConfigShape } from '@tern/renderer/config';
import { cookbookConfigShape } from 'cookbook/server/config';
import { findKubectl, overlays, renderOverlay, resourceFiles, root, type Manifest } from './manifests.js';
import { validateManifest } from './validate.js';

const shapes: Record<string, z.ZodRawShape> = {
  gateway: gatewayConfigShape,
  // The renderer process reads the site's server settings too (its server part starts there).
  renderer: { ...rendererConfigShape, ...cookbookConfigShape },
  image: imageConfigShape,
  icons: iconsConfigShape,
};
const services = Object.keys(shapes);

// Variables set in the manifests that no config.ts reads, each with its reader.
const readElsewhere: Record<string, string> = {
  MALLOC_ARENA_MAX: 'glibc (keeps sharp from growing RSS)',
  METRICS_PORT: 'the metrics listener (issue 14, metrics)',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'the OpenTelemetry SDK',
};

interface EnvVar {
  name: string;
  value?: string;
}
interface Container {
  name: string;
  image: string;
  ports: Array<{ name: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  startupProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: Array<{ name: string }>;
}
interface Workload extends Manifest {
  spec: { template: { spec: PodSpec } };
}
interface ServiceObject extends Manifest {
  spec: { selector: Record<string, string>; ports: Array<{ name: string; port: number; targetPort: string }> };
}

const byKind = <T extends Manifest>(manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind) as T[];
const find = <T extends Manifest>(manifests: Manifest[], kind: string, name: string): T => {
  const found = byKind<T>(manifests, kind).find((m) => m.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name}`);
  return found;
};
const serviceContainer = (manifests: Manifest[], name: string): Container => {
  const container = find<Workload>(manifests, 'Deployment', name).spec.template.spec.containers.find((c) => c.name === name);
  if (!container) throw new Error(`Deployment/${name} has no container ${name}`);
  return container;
};

/** The environment a service's container starts with: its ConfigMap and Secret, then its own env. */
function containerEnv(manifests: Manifest[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, find<Manifest & { data?: Record<string, string> }>(manifests, 'ConfigMap', source.configMapRef.name).data);
    if (source.secretRef) {
      const secret = byKind<Manifest & { data?: Record<string, string>; stringData?: Record<string, string> }>(manifests, 'Secret').find(
        (s) => s.metadata.name === source.secretRef!.name,
      );
      // A Secret the operator creates (production) is not in the output; its keys are REDIS_URL and
      // friends, all optional in the config shapes, so the check below still holds without it.
      for (const [key, value] of Object.entries(secret?.data ?? {})) env[key] = Buffer.from(value, 'base64').toString('utf8');
      Object.assign(env, secret?.stringData);
    }
  }
  for (const variable of container.env ?? []) if (variable.value !== undefined) env[variable.name] = variable.value;
  return env;
}

/** The Dockerfile's targets: name, the main module it runs and the port it exposes. */
function dockerTargets(): Map<string, { cmd: string; expose?: number }> {
  const targets = new Map<string, { cmd: string; expose?: number }>();
  let current: string | undefined;
  for (const line of readFileSync(join(root, 'Dockerfile'), 'utf8').split('\n')) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from) {
      current = from[1]!;
      targets.set(current, { cmd: '' });
    }
    const target = current ? targets.get(current) : undefined;
    if (!target) continue;
    const expose = /^EXPOSE\s+(\d+)/.exec(line);
    if (expose) target.expose = Number(expose[1]);
    if (line.startsWith('CMD ')) target.cmd = line;
  }
  return targets;
}

/** The checks every set of manifests must pass, as written or as an overlay renders it. */
function checkServices(manifests: Manifest[], label: string): void {
  const targets = dockerTargets();
  const readByAny = new Set([...Object.values(shapes).flatMap((shape) => Object.keys(shape)), ...Object.keys(readElsewhere)]);
  for (const name of services) {
    const container = serviceContainer(manifests, name);
    const env = containerEnv(manifests, container);
    const where = `${label}: ${name}`;

    // Config: every field set or defaulted, every value given parses, no variable nobody reads.
    const parsed = z.object(shapes[name]!).safeParse(env);
    expect(parsed.success, `${where}: ${parsed.error ? z.prettifyError(parsed.error) : ''}`).toBe(true);
    for (const variable of Object.keys(env)) expect(readByAny.has(variable), `${where} sets ${variable}, which nothing reads`).toBe(true);

    // Ports: the http port is the one the service listens on (PORT), metrics is PORT + 1000.
    const port = Number(env.PORT);
    const ports = Object.fromEntries(container.ports.map((p) => [p.name, p.containerPort]));
    expect(ports, where).toEqual({ http: port, metrics: port + 1000 });
    expect(Number(env.METRICS_PORT), where).toBe(port + 1000);
    const service = find<ServiceObject>(manifests, 'Service', name);
    expect(service.spec.ports.map((p) => [p.targetPort, p.port]), where).toEqual([
      ['http', port],
      ['metrics', port + 1000],
    ]);

    // Probes: liveness /healthz, readiness /readyz, a startup probe, all on the http port.
    expect(container.livenessProbe?.httpGet, where).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe?.httpGet, where).toEqual({ path: '/readyz', port: 'http' });
    expect(container.startupProbe?.httpGet?.port, where).toBe('http');

    // Graceful shutdown: the grace period covers the preStop pause and SHUTDOWN_TIMEOUT_MS.
    const pod = find<Workload>(manifests, 'Deployment', name).spec.template.spec;
    const shutdownSeconds = Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000) / 1000;
    expect(pod.terminationGracePeriodSeconds ?? 30, where).toBeGreaterThan(shutdownSeconds + (container.lifecycle?.preStop?.sleep?.seconds ?? 0));
    expect(container.lifecycle?.preStop, where).toBeDefined();

    // Hardening, and a writable volume under every path the service writes.
    expect(pod.securityContext?.runAsNonRoot, where).toBe(true);
    expect(container.securityContext, where).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    const config = parsed.data as Record<string, unknown>;
    const written = ['/tmp', config.CACHE_DIR, config.BUILD_STORE_DIR, config.DATA_DIR, config.USERS_FILE, config.IMAGE_CACHE_DIR].filter((p): p is string => typeof p === 'string');
    for (const path of written) {
      const mounted = (container.volumeMounts ?? []).some((m) => path === m.mountPath || path.startsWith(`${m.mountPath}/`));
      expect(mounted, `${where} writes ${path}, which no volume covers`).toBe(true);
    }
    expect(container.resources?.requests, where).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources?.limits?.memory, where).toBeDefined();

    // Images: the Dockerfile target of the same name, which runs this service and exposes its port.
    const target = targets.get(name);
    expect(target, `${where}: no Dockerfile target ${name}`).toBeDefined();
    expect(container.image, where).toMatch(new RegExp(`(^|/)cookbook/${name}(:[\\w.-]+)?$`));
    expect(target!.cmd, where).toContain(`services/${name}/dist/main.js`);
    expect(target!.expose, where).toBe(port);
  }

  // The gateway's upstreams are Services that exist, on their http ports.
  const gatewayEnv = containerEnv(manifests, serviceContainer(manifests, 'gateway'));
  for (const [variable, name] of [
    ['RENDERER_URL', 'renderer'],
    ['IMAGE_URL', 'image'],
    ['ICONS_URL', 'icons'],
  ] as const) {
    const service = find<ServiceObject>(manifests, 'Service', name);
    expect(gatewayEnv[variable], label).toBe(`http://${name}:${service.spec.ports.find((p) => p.name === 'http')!.port}`);
  }

  // Autoscalers for gateway, renderer and image; a disruption budget for every service.
  const scaled = byKind<Manifest & { spec: { scaleTargetRef: { name: string } } }>(manifests, 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
  expect(scaled.sort(), label).toEqual(['gateway', 'image', 'renderer']);
  const budgets = byKind<Manifest & { spec: { selector: { matchLabels: Record<string, string> } } }>(manifests, 'PodDisruptionBudget');
  expect(budgets.map((b) => b.spec.selector.matchLabels['app.kubernetes.io/name']).sort(), label).toEqual([...services].sort());
}

describe('deploy/k8s as written', () => {
  const files = resourceFiles();
  const all = files.flatMap((f) => f.manifests);

  it.each(files.map((f) => [f.file, f.manifests] as const))('%s validates against its schema', (_file, manifests) => {
    for (const manifest of manifests) validateManifest(manifest);
  });

  it('a wrong field type or a missing required field fails validation (the validator is not a pass-through)', () => {
    const gateway = find<Workload>(all, 'Deployment', 'gateway');
    const badPort = structuredClone(gateway);
    badPort.spec.template.spec.containers[0]!.ports[0]!.containerPort = 'http' as unknown as number;
    expect(() => validateManifest(badPort)).toThrow(/containerPort/);
    const route = structuredClone(find(all, 'HTTPRoute', 'cookbook')) as Manifest & { spec: { rules: unknown } };
    route.spec.rules = 'everything';
    expect(() => validateManifest(route)).toThrow(/rules/);
    expect(() => validateManifest({ apiVersion: 'example.com/v1', kind: 'Unknown', metadata: { name: 'x' } })).toThrow(/no schema/);
  });

  it('the base services match their config, ports, probes and Dockerfile targets', () => {
    checkServices(all, 'base');
  });

  it('the probe paths are the ones every service registers (packages/shared/src/http/service.ts createService)', async () => {
    const app = createService({ name: 'probe-check', logger: createLogger({ service: 'probe-check', level: 'silent' }), production: true });
    for (const path of ['/healthz', '/readyz']) expect((await app.inject({ url: path })).statusCode, path).toBe(200);
    await app.close();
    for (const source of ['services/gateway/src/app.ts', 'services/renderer/src/app.ts', 'services/image/src/app.ts', 'services/icons/src/app.ts'])
      expect(readFileSync(join(root, source), 'utf8'), source).toMatch(/createService\(/);
  });

  it("the try overlay's Redis persists what it holds: an append-only file on a claim that outlives the pod, volatile-lru", async () => {
    const redis = find<Workload & { spec: { volumeClaimTemplates?: Array<{ metadata: { name: string } }> } }>(all, 'StatefulSet', 'redis');
    const container = redis.spec.template.spec.containers.find((c) => c.name === 'redis') as Container & { args: string[] };
    const arg = (name: string) => container.args[container.args.indexOf(name) + 1];
    expect([arg('--appendonly'), arg('--appendfsync'), arg('--maxmemory-policy')]).toEqual(['yes', 'everysec', 'volatile-lru']);
    const mount = container.volumeMounts?.find((m) => m.mountPath === arg('--dir'));
    expect(mount, 'a volume at --dir').toBeDefined();
    expect(redis.spec.volumeClaimTemplates?.map((c) => c.metadata.name)).toContain(mount!.name);
    expect(redis.spec.template.spec.volumes ?? []).toEqual([]);
    // The same arguments, given to a real redis-server, make one the durability check calls ok.
    if (!redisServerInstalled()) return console.warn('skipping the Redis arguments check: redis-server is not installed');
    const dir = await mkdtemp(join(tmpdir(), 'k8s-redis-'));
    const server = await ownRedis({ args: container.args.map((a) => (a === '/data' ? dir : a)) });
    await server.start();
    const client = new Redis(server.url);
    try {
      expect(assessDurability(await readDurabilityFacts(client))).toEqual({ status: 'ok', problems: [], notes: [] });
    } finally {
      client.disconnect();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('every pod template carries the Prometheus scrape annotations for its metrics port', () => {
    for (const name of services) {
      const deployment = find<Workload & { spec: { template: { metadata: { annotations: Record<string, string> } } } }>(all, 'Deployment', name);
      const metrics = serviceContainer(all, name).ports.find((p) => p.name === 'metrics')!.containerPort;
      expect(deployment.spec.template.metadata.annotations, name).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(metrics),
        'prometheus.io/path': '/metrics',
      });
    }
  });
});

const kubectl = findKubectl();
if ('missing' in kubectl) console.warn(`deploy/k8s rendered overlays skipped: ${kubectl.missing}`);

describe.skipIf('missing' in kubectl)('deploy/k8s overlays as kubectl kustomize renders them', () => {
  const kubectlPath = 'path' in kubectl ? kubectl.path : '';

  it.each(overlays)('overlay %s: every object validates and the services match', (overlay) => {
    const manifests = renderOverlay(kubectlPath, overlay);
    for (const manifest of manifests) validateManifest(manifest);
    checkServices(manifests, overlay);
    for (const manifest of manifests) if (manifest.kind !== 'Namespace') expect(manifest.metadata.namespace, `${manifest.kind}/${manifest.metadata.name}`).toBe('cookbook');
  });

  it('try: in-cluster Redis that REDIS_URL names, and an Ingress to the gateway', () => {
    const manifests = renderOverlay(kubectlPath, 'try');
    find(manifests, 'StatefulSet', 'redis');
    expect(containerEnv(manifests, serviceContainer(manifests, 'renderer')).REDIS_URL).toBe('redis://redis:6379');
    expect(JSON.stringify(find(manifests, 'Ingress', 'cookbook'))).toContain('"name":"gateway"');
    expect(byKind(manifests, 'HTTPRoute')).toEqual([]);
  });

  it('production: external Redis, HTTPRoute, ServiceMonitor, pinned images, PVC image cache', () => {
    const manifests = renderOverlay(kubectlPath, 'production');
    expect(byKind(manifests, 'StatefulSet')).toEqual([]);
    expect(byKind(manifests, 'Ingress')).toEqual([]);
    expect(JSON.stringify(find(manifests, 'HTTPRoute', 'cookbook'))).toContain('"name":"gateway"');
    find(manifests, 'ServiceMonitor', 'cookbook');
    for (const name of services) expect(serviceContainer(manifests, name).image).toMatch(/:\d+\.\d+\.\d+$/);
    const volumes = find<Workload>(manifests, 'Deployment', 'image').spec.template.spec.volumes;
    expect(volumes).toContainEqual({ name: 'image-cache', persistentVolumeClaim: { claimName: 'image-cache' } });
    find(manifests, 'PersistentVolumeClaim', 'image-cache');
  });
});
