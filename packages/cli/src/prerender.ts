/**
 * Build step (`npm run build:prerender`, after the meta): renders the pages of `prerender: true`
 * rules with the built renderer, crawls the internal links they hold outward (Nuxt's crawler),
 * and writes each page and its payload as a cache entry, compressed at the best level, under
 * dist/prerender/{buildId}/. The gateway serves them with no renderer. A page that does not
 * answer 200 stops the build, named with the page that linked to it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildMeta } from '@tern/shared/build-store/types';
import { buildDir } from '@tern/shared/config/paths';
import { createRouteRulesMatcher, type CompiledRouteRules } from '@tern/shared/route-rules/route-rules';
import { HEALTH_PATH } from '@tern/shared/url-space/health';
import { payloadPath } from '@tern/shared/url-space/payload';
import { createEntry, encodeEntry, withEncoding } from '@tern/gateway/render-cache/cache-entry';
import { prerenderFileName } from '@tern/gateway/render-cache/prerendered';
import { findFreeBasePort } from './ports.js';
import { serviceEntry, waitForOk } from './services.js';

/** Fetches a page as an anonymous person would: the HTML, and its payload. */
export type FetchPage = (path: string) => Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;

/** Whether the crawler may add a linked page: pages with their own cache or SSR choice keep it. */
export function crawlable(rules: CompiledRouteRules, path: string): boolean {
  const matched = createRouteRulesMatcher(rules).match(path);
  return matched.prerender !== false && matched.cache === undefined && matched.ssr !== false && !matched.redirect;
}

/** Internal page links of a document: same-site paths without a file extension, no query or hash. */
export function internalLinks(html: string): string[] {
  const links = new Set<string>();
  for (const [, href = ''] of html.matchAll(/<a\b[^>]*\bhref="(\/[^"]*)"/g)) {
    const path = href.replace(/&amp;/g, '&').split(/[?#]/)[0]!;
    if (!path.startsWith('//') && !/\.[a-z0-9]+$/i.test(path)) links.add(path === '' ? '/' : path);
  }
  return [...links];
}

/** Seeds and crawl: every page to prerender, with the page that linked to it (for errors). */
export async function crawl(
  rules: CompiledRouteRules,
  fetchPage: FetchPage,
): Promise<Map<string, { html: Buffer; headers: Record<string, string> }>> {
  const seeds = Object.entries(rules).flatMap(([pattern, rule]) => (rule.prerender ? [pattern] : []));
  const queue = seeds.map((path) => ({ path, from: 'the route rules' }));
  const done = new Map<string, { html: Buffer; headers: Record<string, string> }>();
  const seen = new Set(seeds);
  while (queue.length > 0) {
    const { path, from } = queue.shift()!;
    const page = await fetchPage(path);
    if (page.status !== 200) throw new Error(`prerender: ${path} answered ${page.status} (linked from ${from})`);
    done.set(path, { html: page.body, headers: page.headers });
    for (const link of internalLinks(page.body.toString('utf8'))) {
      if (seen.has(link) || !crawlable(rules, link)) continue;
      seen.add(link);
      queue.push({ path: link, from: path });
    }
  }
  return done;
}

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 cookbook-prerender';
/** Prerendered files never expire by time; the next build replaces them. */
const PRERENDER_RULE = { maxAge: null, staleMaxAge: null, varies: [] };

async function writeEntry(dir: string, key: string, page: { status: number; headers: Record<string, string>; body: Buffer }) {
  const entry = await withEncoding(await withEncoding(await createEntry(key, page, PRERENDER_RULE), 'br'), 'gzip');
  writeFileSync(join(dir, prerenderFileName(key)), encodeEntry(entry));
}

/** The origin prerendered pages name: PUBLIC_ORIGIN's, or the address `npm start` serves on. */
export function publicOriginForBuild(configured: string | undefined): string {
  return new URL(configured || 'http://localhost:3000').origin;
}

async function main(): Promise<void> {
  const metaFile = join(buildDir, 'build', 'meta.json');
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as BuildMeta;
  const storeDir = mkdtempSync(join(tmpdir(), 'prerender-store-'));
  const port = await findFreeBasePort(1);
  // Pages name their origin (canonical link, app config) and are served to every visitor: the
  // site's public one, never this run's random loopback port. Unset: `npm start`'s address, which
  // is right locally; a deployment sets it (the Dockerfile's build argument, README).
  const origin = publicOriginForBuild(process.env.PUBLIC_ORIGIN);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PUBLIC_ORIGIN: origin,
    PORT: String(port),
    BUILD_STORE_DIR: storeDir,
    DEMO_ACCOUNT: 'false',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
  };
  delete env.REDIS_URL;
  const renderer = spawn(process.execPath, [serviceEntry('renderer')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const fetchPage: FetchPage = async (path) => {
    const response = await fetch(`${base}${path}`, { headers: { 'user-agent': PERSON, accept: 'text/html' }, redirect: 'manual' });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) };
  };
  try {
    await waitForOk(`${base}${HEALTH_PATH}`, 30_000);
    const pages = await crawl(meta.matcher, fetchPage);
    const dir = join(buildDir, 'prerender', meta.id);
    rmSync(join(buildDir, 'prerender'), { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [path, page] of pages) {
      await writeEntry(dir, path, { status: 200, headers: page.headers, body: page.html });
      const payloadFile = payloadPath(path);
      const payload = await fetchPage(`${payloadFile}?${meta.id}`);
      if (payload.status !== 200) throw new Error(`prerender: ${payloadFile} answered ${payload.status}`);
      await writeEntry(dir, payloadFile, payload);
    }
    writeFileSync(metaFile, `${JSON.stringify({ ...meta, prerendered: [...pages.keys()] }, null, 2)}\n`);
    process.stdout.write(`prerender: ${pages.size} page(s): ${[...pages.keys()].join(', ') || 'none'}\n`);
  } finally {
    renderer.kill('SIGTERM');
    rmSync(storeDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  });
}
