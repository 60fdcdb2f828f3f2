/**
 * The visitor's part of a page (docs/decisions/personal-holes.md), computed from their session
 * alone, no page render:
 * - `POST /_personal` (the gateway): `{ path, parts: [[name, props], ...] }`, each as the shared
 *   entry's markers spell it (HTML-escaped attribute values), answers `{ html: [...] }`, the HTML of
 *   each part for this visitor in the same order (the `$state` part is the JSON script the
 *   browser hydrates with). One `renderToString` for all the parts.
 * - `GET /_personal` (the browser, on client navigation and after a change): `{ state }`.
 * Both are `private, no-store`: a visitor's part is never kept by a shared cache.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderToString } from 'react-dom/server';
import { createError } from '@tern/shared/errors/errors';
import { PERSONAL_ELEMENT_ID, PERSONAL_PATH, STATE_HOLE } from '@tern/runtime/shared/personal';
import { toScriptSafeJson } from '@tern/runtime/shared/payload';
import { RENDERER_SERVER_ERRORS } from './error-codes.js';
import { requestOrigin } from '@tern/site/request-origin';
import { PART_SEPARATOR, type PersonalPart } from '@tern/runtime/server/ssr-entry';
import type { RenderContext } from './render-context.js';
import { sitePath } from './site-url.js';

/** More parts than any page draws: a bigger list is not the gateway's. */
const MAX_PARTS = 500;
const MAX_BODY_BYTES = 64 * 1024;
const PRIVATE = { 'cache-control': 'private, no-store', vary: 'cookie', 'x-content-type-options': 'nosniff' };

/** The state of the request's visitor; undefined when anonymous (no cookie at all: no look-up). */
export async function personalStateOf(context: RenderContext, request: FastifyRequest): Promise<unknown> {
  if (!context.personal || !request.headers.cookie) return undefined;
  // One parse, the Request's own, as for the page's request (fetch-request.ts).
  const url = requestOrigin(request) + sitePath(request.url);
  return (await context.personal(new Request(url, { headers: { cookie: request.headers.cookie } }))) ?? undefined;
}

/**
 * The `$state` part: the script the browser reads before hydration; nothing for an anonymous visitor.
 * A page rendered for one request signs it with that request's nonce like every other script of
 * the page; the gateway's splice into a cached page (hashes, no nonce) gets it without one.
 */
export function stateHoleHtml(state: unknown, nonce?: string): string {
  if (state === undefined) return '';
  const signed = nonce === undefined ? '' : ` nonce="${nonce}"`;
  return `<script type="application/json" id="${PERSONAL_ELEMENT_ID}"${signed}>${toScriptSafeJson(state)}</script>`;
}

/** The document's end with the `$state` part in it, as the shared entry and every render have it. */
export function documentEndWithState(end: string, state: unknown, nonce: string): string {
  const at = end.lastIndexOf('</body>');
  return `${end.slice(0, at)}<template data-hole="${STATE_HOLE}" data-props="{}"></template>${stateHoleHtml(state, nonce)}<template data-hole-end=""></template>${end.slice(at)}`;
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#x27;': "'", '&#39;': "'" };
const unescapeAttribute = (value: string) => value.replace(/&(?:quot|amp|lt|gt|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);

function badRequest(message: string): never {
  throw createError(RENDERER_SERVER_ERRORS.RENDERER_PERSONAL_BAD_REQUEST(message));
}

/** The body, checked: a page path and the parts its markers name. */
function partsRequest(body: unknown): { path: string; parts: PersonalPart[] } {
  const { path, parts } = (body ?? {}) as { path?: unknown; parts?: unknown };
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) badRequest('path must be a page path');
  if (!Array.isArray(parts) || parts.length > MAX_PARTS) badRequest(`parts must be a list of at most ${MAX_PARTS}`);
  return {
    path,
    parts: parts.map((part: unknown) => {
      if (!Array.isArray(part) || typeof part[0] !== 'string' || typeof part[1] !== 'string') badRequest('each part is [name, props]');
      try {
        return { name: unescapeAttribute(part[0] as string), props: JSON.parse(unescapeAttribute(part[1] as string)) as unknown };
      } catch {
        return badRequest(`the props of part "${String(part[0])}" are not JSON`);
      }
    }),
  };
}

/**
 * The parts' HTML drawn lately, by what draws them: the page's address, the parts and the state.
 * A part is a function of those alone (no data router, no `useId`: personal.tsx), so the same
 * visitor's next page of the same kind, and every visitor with the same state (all the signed-in
 * visitors with nothing saved see the same buttons on a page), costs no render. Bounded:
 * the oldest key goes first. Per server entry (a dev rebuild loads a new one, so never a stale part).
 */
const MEMO_ENTRIES = 512;
const memos = new WeakMap<object, Map<string, string[]>>();

function memoised(memo: Map<string, string[]>, key: string, draw: () => string[]): string[] {
  const kept = memo.get(key);
  if (kept) return kept;
  const html = draw();
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  memo.set(key, html);
  return html;
}

/** Each part's HTML for this visitor, in order. */
export async function renderParts(context: RenderContext, path: string, state: unknown, parts: PersonalPart[]): Promise<string[]> {
  const drawn = parts.filter((part) => part.name !== STATE_HOLE);
  let html: string[] = [];
  if (drawn.length > 0) {
    const key = JSON.stringify([path, state ?? null, drawn.map((part) => [part.name, part.props])]);
    let memo = memos.get(context.entry);
    if (!memo) memos.set(context.entry, (memo = new Map()));
    try {
      const element = memo.has(key) ? null : await context.entry.personalPartsElement(path, state, drawn);
      html = memoised(memo, key, () => renderToString(element).split(PART_SEPARATOR));
    } catch (error) {
      badRequest(error instanceof Error ? error.message : String(error));
    }
  }
  let next = 0;
  return parts.map((part) => (part.name === STATE_HOLE ? stateHoleHtml(state) : (html[next++] ?? '')));
}

async function answerParts(context: RenderContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { path, parts } = partsRequest(request.body);
  const state = await personalStateOf(context, request);
  return reply.headers(PRIVATE).send({ html: await renderParts(context, path, state, parts) });
}

/** Registers both routes; a site without personal parts answers 404 there, like any unknown path. */
export function registerPersonalRoutes(app: FastifyInstance, context: RenderContext): void {
  if (!context.personal) return;
  app.post(PERSONAL_PATH, { bodyLimit: MAX_BODY_BYTES }, (request, reply) => answerParts(context, request, reply));
  app.get(PERSONAL_PATH, async (request, reply) =>
    reply.headers(PRIVATE).send({ state: (await personalStateOf(context, request)) ?? null }),
  );
}
