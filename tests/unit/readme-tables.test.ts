/**
 * README cannot drift from the code: every metric the services register and every variable their
 * config schemas read has a row in README's tables. The metrics come from the services' own
 * register functions on fresh registries, the variables from the zod shapes' keys.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { registerTelemetry } from '@tern/shared/telemetry/request-telemetry';
import { gatewayConfigShape } from '@tern/gateway/config';
import { registerGatewayMetrics } from '@tern/gateway/metrics';
import { registerRenderCacheMetrics } from '@tern/gateway/render-cache/cache-metrics';
import type { RenderCacheStats } from '@tern/gateway/render-cache/render-cache';
import { iconsConfigShape } from '@tern/icons/config';
import type { IconSetCache } from '@tern/icons/icon-set-cache';
import type { IconReads } from '@tern/icons/icon-set-file';
import { registerIconsMetrics } from '@tern/icons/metrics';
import { imageConfigShape } from '@tern/image/config';
import type { ImageMetrics } from '@tern/image/image-pipeline';
import type { AddressBudget } from '@tern/image/address-budget';
import type { JobQueue } from '@tern/image/job-queue';
import { registerImageMetrics } from '@tern/image/metrics';
import { rendererConfigShape } from '@tern/renderer/config';
import { cookbookConfigShape } from 'cookbook/server/config';
import { registerRenderMetrics } from '@tern/renderer/render-metrics';

/** The backquoted names in the first column of the tables under README's `## {heading}`. */
async function readmeNames(heading: string): Promise<Set<string>> {
  const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of firstCell.matchAll(/`([^`]+)`/g)) names.add(match[1]!);
  }
  return names;
}

/** The metric names in `registry`, less prom-client's default process metrics (one README row covers those). */
function registered(registry: Registry): string[] {
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  const skip = new Set(defaults.getMetricsAsArray().map((metric) => metric.name));
  return registry
    .getMetricsAsArray()
    .map((metric) => metric.name)
    .filter((name) => !skip.has(name));
}

/** Every metric a service registers: the shared request metrics, then each service's own. */
async function serviceMetricNames(): Promise<string[]> {
  // The gateway's and the renderer's register functions take the app, as in their app.ts.
  const app = Fastify();
  try {
    const { registry } = registerTelemetry(app, { service: 'readme' }).metrics;
    const upstream = 'http://127.0.0.1:1';
    registerGatewayMetrics(app, { rendererUrl: upstream, imageUrl: upstream, iconsUrl: upstream });
    registerRenderCacheMetrics(registry, {} as RenderCacheStats);
    registerRenderMetrics(app);
    registerImageMetrics(registry, { metrics: {} as ImageMetrics, queue: {} as JobQueue, budget: {} as AddressBudget });
    registerIconsMetrics(registry, {} as IconSetCache, {} as IconReads);
    return registered(registry);
  } finally {
    await app.close();
  }
}

describe('README tables', () => {
  it('list every metric the services register', async () => {
    const names = await serviceMetricNames();
    expect(names.length).toBeGreaterThan(20);
    const documented = await readmeNames('Metrics and traces');
    expect(names.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('list every variable a config schema reads', async () => {
    const variables = new Set(
      [gatewayConfigShape, rendererConfigShape, cookbookConfigShape, imageConfigShape, iconsConfigShape].flatMap((shape) =>
        Object.keys(shape),
      ),
    );
    expect(variables.size).toBeGreaterThan(40);
    const documented = await readmeNames('Configuration');
    expect([...variables].filter((name) => !documented.has(name))).toEqual([]);
  });
});
