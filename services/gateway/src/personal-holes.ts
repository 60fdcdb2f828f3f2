/**
 * Signed-in visitors from the shared render cache (docs/decisions/personal-holes.md). A page the
 * renderer marked `x-personal: parts` is the same for everyone but its personal parts, each drawn
 * in the shared entry in its anonymous state between two markers:
 *     <template data-hole="{name}" data-props="{json}"></template> ... <template data-hole-end=""></template>
 * For a visitor with a session the gateway answers that entry (x-cache HIT or STALE as any hit):
 * it writes the page head at once (no body to paint yet), asks the renderer for the visitor's
 * parts (`POST /_personal`, their cookies, no page render) with a budget of `budgetMs`, and puts
 * each part's HTML between its markers. An answer that fails or is late leaves every part in its
 * anonymous state (one log line); the page is served either way. The stitched answer is
 * `Cache-Control: private` and is never stored in a shared tier: only the anonymous entry is. The
 * visitor's parts are kept by this gateway for their next page (personal-parts-memory.ts), which
 * then goes out in one write with no trip to the renderer.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { Agent } from 'undici';
import { forwardedHeaders } from './forwarded.js';
import type { MatchedRouteRules } from '@tern/shared/route-rules/route-rules';
import { PERSONAL_HEADER } from '@tern/shared/config/constants';
import { ruleHeaders } from './route-rules.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { headersPerEntry, withRequestHeaders } from './render-cache/answer-headers.js';
import { ageOf, type CacheEntry } from './render-cache/cache-entry.js';
import { acceptsGzip, gzipHead, gzipRest, gzipSegments, type GzipSegments } from './personal-gzip.js';
import { partsKey, type KeptParts, type PartsMemory } from './personal-parts-memory.js';

/** One part of an entry: its name and props as the marker spells them, and where its content lies. */
export interface Hole {
  name: string;
  props: string;
  /** Offset of the content (just past the start marker) in the identity body. */
  start: number;
  /** Offset of the end marker. */
  end: number;
}

const START = Buffer.from('<template data-hole="');
const PROPS = Buffer.from('" data-props="');
const START_CLOSE = Buffer.from('"></template>');
const END = Buffer.from('<template data-hole-end=""></template>');
/** The renderer's path for a visitor's parts (the platform's runtime/shared/personal.tsx, PERSONAL_PATH). */
export const PERSONAL_PATH = '/_personal';
/** A late answer is still awaited (to keep its connection) up to this many budgets, then aborted. */
const ABANDON_AFTER_BUDGETS = 20;

/** The parts of a body, in order; [] when it has none or a marker is malformed (then it is served whole). */
export function holesOf(body: Buffer): Hole[] {
  const holes: Hole[] = [];
  let at = body.indexOf(START);
  while (at !== -1) {
    const nameStart = at + START.length;
    const propsAt = body.indexOf(PROPS, nameStart);
    const closeAt = propsAt === -1 ? -1 : body.indexOf(START_CLOSE, propsAt + PROPS.length);
    const start = closeAt + START_CLOSE.length;
    const end = closeAt === -1 ? -1 : body.indexOf(END, start);
    const next = body.indexOf(START, nameStart);
    // Parts do not nest: a start before this part's end is a page the gateway does not stitch.
    if (end === -1 || (next !== -1 && next < end)) return [];
    holes.push({
      name: body.toString('utf8', nameStart, propsAt),
      props: body.toString('utf8', propsAt + PROPS.length, closeAt),
      start,
      end,
    });
    at = next;
  }
  return holes;
}

const BODY_START = Buffer.from('<body');

/**
 * The shared bytes around the parts: the head, the body before the first part, between each two,
 * after the last. The head is a piece of its own because it goes out before the parts are in: the
 * browser fetches styles and scripts meanwhile, but has no body to paint until the parts are there,
 * so a slow answer never shows a header without its account part (a shift once it arrives).
 */
export function sharedSegments(body: Buffer, holes: Hole[]): Buffer[] {
  const first = holes[0]!.start;
  const bodyAt = body.indexOf(BODY_START);
  const headEnd = bodyAt !== -1 && bodyAt < first ? bodyAt : first;
  return [
    body.subarray(0, headEnd),
    body.subarray(headEnd, first),
    ...holes.map((hole, index) => body.subarray(hole.end, holes[index + 1]?.start ?? body.length)),
  ];
}

/** An entry's identity body, its parts, and the shared segments around them (sharedSegments). */
interface Layout {
  body: Buffer;
  holes: Hole[];
  segments: Buffer[];
  /** The entry and its parts in a few bytes: what a visitor's kept parts belong to (personal-parts-memory.ts). */
  signature: string;
}

/** What goes between the shared segments: nothing after the head, then each part. */
const betweenSegments = (parts: Buffer[]): Buffer[] => [Buffer.alloc(0), ...parts];

export interface PersonalHolesOptions {
  /** The renderer to ask (the current build's). */
  renderer: () => string;
  /** How long the visitor's parts may take before the anonymous state is served instead. */
  budgetMs: number;
  /**
   * Where the fallback's line goes: the app's logger, since `request.log` of a page request is the
   * proxy route's, which keeps only errors (proxy.ts), and a late part is no error.
   */
  log: FastifyBaseLogger;
  /** Each visitor's parts kept between their pages (personal-parts-memory.ts). */
  memory: PartsMemory;
  /** The value of the request's session cookie, if any. */
  sessionOf: (request: FastifyRequest) => string | undefined;
  now?: () => number;
}

export interface PersonalHoles {
  /** Whether a signed-in visitor may be answered from this entry (the page said so). */
  serves(entry: CacheEntry): boolean;
  /** Answers a stitched page and returns true; false when the entry has no parts (serve it as any hit). */
  serve(request: FastifyRequest, reply: FastifyReply, entry: CacheEntry, status: 'HIT' | 'STALE', rules: MatchedRouteRules | null): boolean;
  close(): Promise<void>;
}

/** The headers every stitched answer of an entry shares: the entry's, no ETag or length (the body is the visitor's), private. */
function stitchedHeaders(entry: CacheEntry, status: string, gzip: boolean, extra: [string, string][] = []): string[] {
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...entry.headers };
  headers['cache-control'] = 'private, no-cache';
  headers.vary = `${entry.headers.vary ?? 'cookie'}, accept-encoding`;
  if (gzip) headers['content-encoding'] = 'gzip';
  headers['x-cache'] = status;
  for (const [name, value] of extra) headers[name] = value;
  return Object.entries(headers).flat();
}

const preparedStitchedHeaders = headersPerEntry((entry, variant) => {
  const [status, encoding] = variant.split(' ');
  return stitchedHeaders(entry, status!, encoding === 'gzip');
});

export function createPersonalHoles(options: PersonalHolesOptions): PersonalHoles {
  const now = options.now ?? Date.now;
  const parsed = new WeakMap<CacheEntry, Layout>();
  const gzipped = new WeakMap<CacheEntry, GzipSegments>();
  const pool = new Agent({ connections: 64, keepAliveTimeout: 60_000 });

  /** An entry's parts and the shared bytes around them, found once per entry, not per visitor. */
  const layoutOf = (entry: CacheEntry): Layout => {
    let layout = parsed.get(entry);
    if (!layout) {
      const body = entry.bodies.identity;
      const holes = entry.headers['content-type']?.startsWith('text/html') ? holesOf(body) : [];
      const signature = createHash('sha256')
        .update(JSON.stringify([entry.key, entry.etag, holes.map((hole) => [hole.name, hole.props])]))
        .digest('base64url');
      layout = { body, holes, segments: holes.length > 0 ? sharedSegments(body, holes) : [], signature };
      parsed.set(entry, layout);
    }
    return layout;
  };

  /** The visitor's HTML of each part, in order; throws on anything else (failed, the wrong count). */
  async function askRenderer(request: FastifyRequest, path: string, holes: Hole[], signal: AbortSignal): Promise<string[]> {
    const headers = forwardedHeaders(request, { cookie: request.headers.cookie ?? '', 'content-type': 'application/json' });
    const response = await pool.request({
      origin: options.renderer(),
      method: 'POST',
      path: PERSONAL_PATH,
      headers: headers as Record<string, string>,
      body: JSON.stringify({ path, parts: holes.map((hole) => [hole.name, hole.props]) }),
      signal,
    });
    const body = (await response.body.json()) as { html?: unknown };
    if (response.statusCode !== 200) throw new Error(`the renderer answered ${response.statusCode}`);
    const html = body.html;
    if (!Array.isArray(html) || html.length !== holes.length || !html.every((part) => typeof part === 'string'))
      throw new Error(`the renderer answered ${Array.isArray(html) ? html.length : 'no'} parts for ${holes.length}`);
    return html as string[];
  }

  /**
   * The answer within the budget, or a TimeoutError. A late answer is still read to its end (and
   * dropped), so the kept-alive connection to the renderer stays open for the next visitor rather
   * than being torn down and dialled again under the very load that made it late; only an answer
   * far past the budget is aborted. A timer cleared on the answer, not `AbortSignal.timeout`,
   * which fires (and builds an exception with its stack) after every request, answered or not.
   */
  function partsFor(request: FastifyRequest, path: string, holes: Hole[]): Promise<string[]> {
    const abandon = new AbortController();
    const asked = askRenderer(request, path, holes, abandon.signal);
    const giveUp = setTimeout(() => abandon.abort(), options.budgetMs * ABANDON_AFTER_BUDGETS);
    let late: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_, reject) => {
      late = setTimeout(() => reject(Object.assign(new Error('late'), { name: 'TimeoutError' })), options.budgetMs);
    });
    void asked.then(
      () => clearTimeout(giveUp),
      () => clearTimeout(giveUp),
    );
    return Promise.race([asked, budget]).finally(() => clearTimeout(late));
  }

  /** The shared pieces of an entry in gzip, made on the first gzip answer of it (personal-gzip.ts). */
  const gzipOfEntry = (entry: CacheEntry, layout: Layout) => {
    let shared = gzipped.get(entry);
    if (!shared) gzipped.set(entry, (shared = gzipSegments(layout.segments)));
    return shared;
  };

  /** The body after the head: with the visitor's parts, or the shared ones. */
  function restOf(layout: Layout, kept: KeptParts | null, gzip: GzipSegments | null): Buffer[] {
    const { body, holes, segments } = layout;
    const parts = betweenSegments(kept ? kept.parts : holes.map((hole) => body.subarray(hole.start, hole.end)));
    if (gzip) return gzipRest(gzip, parts);
    return parts.flatMap((part, index) => [part, segments[index + 1]!]);
  }

  /** A visitor's whole gzip body for their kept parts, made on their first gzip answer of this entry. */
  const gzipBodyOf = (layout: Layout, kept: KeptParts, gzip: GzipSegments): Buffer =>
    kept.gzipBody ?? options.memory.withGzipBody(kept, Buffer.concat([gzipHead(gzip), ...restOf(layout, kept, gzip)]));

  /** The visitor's parts: kept from their last page, or asked for (and kept); null leaves the anonymous state. */
  function visitorParts(request: FastifyRequest, path: string, layout: Layout): KeptParts | null | Promise<KeptParts | null> {
    const memory = options.memory;
    const key = memory.enabled ? partsKey(request.headers.cookie, request.headers.authorization, path, layout.signature) : null;
    const session = key === null ? undefined : options.sessionOf(request);
    const kept = session === undefined ? undefined : memory.get(key!, session);
    if (kept) return kept;
    const asked = now();
    return partsFor(request, path, layout.holes).then(
      (html) => {
        const parts = html.map((part) => Buffer.from(part));
        return session === undefined ? { key: '', parts, askedAt: asked } : memory.keep(key!, session, parts, asked);
      },
      (error: unknown) => {
        const reason = error instanceof Error && error.name === 'TimeoutError' ? `over ${options.budgetMs} ms` : String(error);
        options.log.warn({ reqId: request.id, path, ms: now() - asked, reason }, 'personal parts failed; serving their anonymous state');
        return null;
      },
    );
  }

  return {
    serves: (entry) => entry.headers[PERSONAL_HEADER] === 'parts',
    serve(request, reply, entry, status, rules) {
      const layout = layoutOf(entry);
      if (layout.holes.length === 0) return false;
      const path = request.url.startsWith('/') ? request.url : '/';
      // Settled (never rejected) before the answer is written, so an early failure never goes unhandled.
      const parts = request.method === 'HEAD' ? null : visitorParts(request, path, layout);
      const gzip = acceptsGzip(request.headers['accept-encoding']) ? gzipOfEntry(entry, layout) : null;
      // Route rule headers (rare) replace the entry's own of the same name, as on a hit.
      const extra = rules ? ruleHeaders(rules, true, entry.status) : [];
      const shared =
        extra.length > 0
          ? stitchedHeaders(entry, status, gzip !== null, extra)
          : preparedStitchedHeaders(entry, `${status} ${gzip ? 'gzip' : 'identity'}`);
      reply.hijack();
      reply.raw.writeHead(entry.status, withRequestHeaders(shared, request, reply, ageOf(entry, now())));
      if (parts === null) {
        reply.raw.end();
        return true;
      }
      if (!(parts instanceof Promise)) {
        // Kept parts: the whole answer in one write.
        reply.raw.end(gzip ? gzipBodyOf(layout, parts, gzip) : Buffer.concat([layout.segments[0]!, ...restOf(layout, parts, null)]));
        return true;
      }
      // The head (styles, preloads) goes at once; the body follows when the visitor's parts are in.
      reply.raw.write(gzip ? gzipHead(gzip) : layout.segments[0]!);
      void parts.then((kept) => reply.raw.end(Buffer.concat(restOf(layout, kept, gzip))));
      return true;
    },
    close: () => pool.close(),
  };
}
