/**
 * The renderer app over the real build (dist/client, dist/ssr with the cookbook's server part,
 * dist/content) for app.inject tests, with its log lines captured. `builtReason` says why a test
 * must skip (no build yet). The site's accounts are embedded, with no demo account and no file.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildDir } from '@tern/shared/config/paths';
import { buildRendererApp } from '../app.js';
import type { RenderContext } from '../render-context.js';
import { readViteManifest } from '../manifest-links.js';
import { loadSsrEntry, startSiteServer, type SsrEntry } from '@tern/runtime/server/ssr-entry';
import { readBuildMeta } from '../build-info.js';
import { createWholePageRenderer } from '../whole-page.js';

export const clientDir = join(buildDir, 'client');
export const ssrEntryFile = join(buildDir, 'ssr', 'entry-server.js');
const contentFile = join(buildDir, 'content', 'content.json');

export const builtReason = [ssrEntryFile, join(clientDir, '.vite', 'manifest.json'), contentFile].some((f) => !existsSync(f))
  ? 'the renderer is not built (run `npm run build`)'
  : null;
if (builtReason) console.warn(`skipping renderer app tests: ${builtReason}`);

export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
export const BUILD_ID = 'test-build-1';

/**
 * How a page rendered for a visitor without a session ends: the root closed, then the document's
 * `$state` part, empty (docs/decisions/personal-holes.md). Only a complete render writes it.
 */
export const ANONYMOUS_DOCUMENT_END =
  '</div><template data-hole="$state" data-props="{}"></template><template data-hole-end=""></template></body></html>';

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
  const logger = pino({ level: 'info' }, sink);
  const entry = overrides.entry ?? (await loadSsrEntry(ssrEntryFile));
  const siteEnv = { CONTENT_FILE: contentFile, DEMO_ACCOUNT: 'false', USERS_FILE: join(tmpdir(), `built-app-users-${process.pid}.json`) };
  const site = await startSiteServer(await loadSsrEntry(ssrEntryFile), { logger, env: siteEnv, dev: false });
  const context: RenderContext = {
    entry,
    manifest: await readViteManifest(clientDir),
    services: site?.services,
    personal: site?.personal,
    build: { id: BUILD_ID, timestamp: 1 },
    sessionCookie: (await readBuildMeta(join(buildDir, 'build', 'meta.json'))).sessionCookie,
    assetsPrefix: '/_nuxt/',
    publicOrigin: 'https://cookbook.example',
    streamTimeoutMs: 5000,
    wholePages: createWholePageRenderer(),
    production: true,
    ...overrides,
  };
  const { app } = await buildRendererApp(context, { clientDir, logger, ...(site ? { site } : {}) });
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
