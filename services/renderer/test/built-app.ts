/**
 * The renderer app over the real build (dist/client, dist/ssr, dist/content) for app.inject
 * tests, with its log lines captured. `builtReason` says why a test must skip (no build yet).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildDir } from '../../../lib/paths.js';
import { loadContentRepository } from '../../../site/content/repository.js';
import { buildRendererApp } from '../src/server/app.js';
import type { RenderContext } from '../src/server/render-context.js';
import { readViteManifest } from '../src/server/manifest-links.js';
import { loadSsrEntry, type SsrEntry } from '../src/server/ssr-entry.js';

export const clientDir = join(buildDir, 'client');
export const ssrEntryFile = join(buildDir, 'ssr', 'entry-server.js');
const contentFile = join(buildDir, 'content', 'content.json');

export const builtReason = [ssrEntryFile, join(clientDir, '.vite', 'manifest.json'), contentFile].some((f) => !existsSync(f))
  ? 'the renderer is not built (run `npm run build`)'
  : null;
if (builtReason) console.warn(`skipping renderer app tests: ${builtReason}`);

export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
export const BUILD_ID = 'test-build-1';

export interface BuiltApp {
  app: FastifyInstance;
  logs: Record<string, unknown>[];
  context: RenderContext;
}

export async function builtApp(overrides: Partial<RenderContext> & { entry?: SsrEntry } = {}): Promise<BuiltApp> {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const context: RenderContext = {
    entry: overrides.entry ?? (await loadSsrEntry(ssrEntryFile)),
    manifest: await readViteManifest(clientDir),
    services: { content: await loadContentRepository(contentFile) },
    build: { id: BUILD_ID, timestamp: 1 },
    assetsPrefix: '/_nuxt/',
    publicOrigin: 'https://cookbook.example',
    streamTimeoutMs: 5000,
    production: true,
    ...overrides,
  };
  const { app } = await buildRendererApp(context, { clientDir, logger: pino({ level: 'info' }, sink) });
  await app.ready();
  return { app, logs, context };
}

/** Every inline <script> of a page and whether it carries the nonce. */
export function inlineScripts(html: string): { nonce: string | null; hasSrc: boolean }[] {
  return [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => ({
    nonce: /\bnonce="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? null,
    hasSrc: /\bsrc=/.test(m[1] ?? ''),
  }));
}
