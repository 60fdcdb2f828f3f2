/** Small real upstream servers for the gateway tests: real sockets, no mocks. */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { createFileBuildStore, type BuildMeta, type BuildStore } from '@tern/shared/build-store';
import { buildGatewayApp, type GatewayApp } from '../app.js';
import { parseGatewayConfig } from '../config.js';
import { normalizeRouteRules, type RouteRulesInput } from '@tern/shared/route-rules/route-rules';
import { freePort } from '../../../../tests/support/free-port.js';

export interface Upstream {
  url: string;
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  app: FastifyInstance;
}

export const PAGE = `<!DOCTYPE html><html><body>${'<p>Recipe text that compresses well. </p>'.repeat(200)}</body></html>`;
/** About the size of a real page (40-60 KB), with text that varies. */
export const LONG_PAGE = `<!DOCTYPE html><html><body>${Array.from({ length: 1200 }, (_, i) => `<p>Step ${i * 7919} of the recipe.</p>`).join('')}</body></html>`;

/** An upstream that answers every path with its name and records what it was sent (on `port`, or any free one). */
export async function startUpstream(name: string, delayMs = 0, port = 0): Promise<Upstream> {
  const app = Fastify();
  const seen: Upstream['seen'] = [];
  app.all('/*', async (request, reply) => {
    seen.push({ url: request.url, headers: request.headers });
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (request.url.startsWith('/page')) return reply.type('text/html; charset=utf-8').send(PAGE);
    // A longer page, sent whole (a Content-Length) or streamed in parts (none).
    if (request.url.startsWith('/long/whole')) return reply.type('text/html; charset=utf-8').send(LONG_PAGE);
    if (request.url.startsWith('/long/streamed'))
      return reply.type('text/html; charset=utf-8').send(Readable.from(LONG_PAGE.match(/[^]{1,8192}/g)!));
    if (request.url.startsWith('/status/')) return reply.code(Number(request.url.split('/')[2])).send({ name });
    return { name, url: request.url };
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  const url = await app.listen({ port, host: '127.0.0.1' });
  return { url, seen, app };
}

/** A port where nothing listens: taken, then released. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

export function metaOf(id: string, rules: RouteRulesInput, timestamp = Date.now(), extra: Partial<BuildMeta> = {}): BuildMeta {
  return { id, timestamp, matcher: normalizeRouteRules(rules), prerendered: [], ...extra };
}

export interface TestGateway extends GatewayApp {
  store: BuildStore;
  cleanup(): Promise<void>;
}

/** A gateway over a file store in a temp dir, with `meta` published first when given. */
export async function startGateway(
  env: Record<string, string>,
  meta?: BuildMeta,
  logger: FastifyBaseLogger = pino({ level: 'silent' }),
  now?: () => number,
): Promise<TestGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-test-'));
  const store = createFileBuildStore({ dir, pollIntervalMs: 50 });
  if (meta) await store.publish(meta);
  // No wait for a first build (first-build.ts): a test without one means it; one with one has it before the first request.
  const config = parseGatewayConfig({
    BUILD_POLL_MS: '100',
    UPSTREAM_TIMEOUT_MS: '500',
    CACHE_DIR: join(dir, 'render-cache'),
    FIRST_BUILD_WAIT_MS: '0',
    ...env,
  });
  const gateway = await buildGatewayApp(config, { logger, store, ...(now ? { now } : {}) });
  return {
    ...gateway,
    store,
    async cleanup() {
      await gateway.app.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A logger whose lines (parsed) land in `lines`, for tests of what is logged at which level. */
export function capturingLogger(): { logger: FastifyBaseLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}
