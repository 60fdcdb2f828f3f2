/**
 * The JavaScript a page's first load costs, counted as served: every `<script src>`,
 * `<link rel="modulepreload">` and module listed for the after-paint bootstrap (the
 * PAGE_MODULES_ELEMENT_ID block) of its HTML, fetched through the gateway with
 * `accept-encoding: br, gzip` and measured as the bytes on the wire (not decompressed).
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { PAGE_MODULES_ELEMENT_ID } from '@tern/runtime/shared/document-ids';

/** Issue 15: 100 KB (KiB) of JavaScript as served, at most, on the pages a visitor lands on. */
export const FIRST_LOAD_JS_BUDGET_BYTES = 100 * 1024;

export interface ServedScript {
  url: string;
  /** Bytes on the wire. */
  bytes: number;
  encoding: string | null;
  /** The decompressed text, to look into. */
  text: string;
}

export interface FirstLoadJs {
  path: string;
  scripts: ServedScript[];
  /** Sum of `bytes`. */
  total: number;
}

/** The after-paint bootstrap's module list (PAGE_MODULES_ELEMENT_ID) as the page has it; null in development. */
export function readPageModules(html: string): { entry: string; preload: string[] } | null {
  const block = new RegExp(`<script type="application/json" id="${PAGE_MODULES_ELEMENT_ID}"[^>]*>([^<]*)</script>`).exec(html)?.[1];
  return block ? (JSON.parse(block) as { entry: string; preload: string[] }) : null;
}

/** The modules the production bootstrap loads after the first paint (entry first); none in development. */
export function pageModuleUrls(html: string): string[] {
  const modules = readPageModules(html);
  return modules ? [...new Set([modules.entry, ...modules.preload])] : [];
}

/** The scripts a document loads at once: module and classic script sources, module preloads. */
export function firstLoadScriptUrls(html: string): string[] {
  const urls = new Set<string>();
  const attribute = (tag: string, name: string) =>
    new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(1).find(Boolean);
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (src) urls.add(src.replaceAll('&amp;', '&'));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = attribute(tag, 'href');
    if (href && rel.includes('modulepreload')) urls.add(href.replaceAll('&amp;', '&'));
  }
  for (const url of pageModuleUrls(html)) urls.add(url);
  return [...urls];
}

function decode(body: Buffer, encoding: string | null): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** Fetches `path`'s HTML (as a person's browser would ask for it) and every script it loads at once. */
export async function measureFirstLoadJs(origin: string, path: string, headers: Record<string, string> = {}): Promise<FirstLoadJs> {
  const page = await request(new URL(path, origin), { headers: { accept: 'text/html', ...headers } });
  if (page.statusCode !== 200) throw new Error(`${path} answered ${page.statusCode}`);
  const html = await page.body.text();
  const scripts = await Promise.all(
    firstLoadScriptUrls(html).map(async (src): Promise<ServedScript> => {
      const url = new URL(src, new URL(path, origin)).href;
      const response = await request(url, { headers: { 'accept-encoding': 'br, gzip', ...headers } });
      const body = Buffer.from(await response.body.arrayBuffer());
      if (response.statusCode !== 200) throw new Error(`${url} (from ${path}) answered ${response.statusCode}`);
      const encoding = (response.headers['content-encoding'] as string | undefined) ?? null;
      return { url, bytes: body.length, encoding, text: decode(body, encoding) };
    }),
  );
  return { path, scripts, total: scripts.reduce((sum, script) => sum + script.bytes, 0) };
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line per script and a total, for a test's or a benchmark's output. */
export function describeFirstLoadJs(result: FirstLoadJs): string {
  const lines = result.scripts
    .slice()
    .sort((a, b) => b.bytes - a.bytes)
    .map((s) => `    ${kib(s.bytes).padStart(9)} ${s.encoding ?? 'identity'}  ${new URL(s.url).pathname}`);
  return [`${result.path}: ${kib(result.total)} in ${result.scripts.length} files`, ...lines].join('\n');
}
