/**
 * Rendering a page for the cache: one GET to the renderer with only the headers that are part
 * of the key (no session, no other cookies), read whole, and judged storable or not. Identical
 * misses share one render in this process (single flight) and, through the store's lock, across
 * gateways: a gateway that finds the lock taken waits briefly for the entry instead of rendering.
 */
import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import { wantsJson } from '@tern/shared/errors/errors';
import type { CacheRule } from '@tern/shared/route-rules/types';
import { forwardedHeaders } from '../forwarded.js';
import { keyedCookies } from './cache-key.js';
import type { CacheDecision } from './cache-policy.js';
import { createEntry, type CacheEntry } from './cache-entry.js';

export interface Rendered {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Either an entry to serve and keep, or an answer for one request only: the first caller to
 * `claim` it sends it (its nonce is then used once); callers that joined the render proxy their own.
 */
export type FillResult =
  { kind: 'entry'; entry: CacheEntry } | { kind: 'uncacheable'; rendered: Rendered; reason: string; claim(): boolean };

const PASSED_HEADERS = ['user-agent', 'accept', 'accept-language'];

/** Why an answer must not be stored, or null when it may be (Nitro stores Set-Cookie; we never do). */
export function unstorableReason(rendered: Rendered): string | null {
  if (rendered.status !== 200 && rendered.status !== 404) return `status ${rendered.status}`;
  if (rendered.headers['set-cookie'] !== undefined) return 'set-cookie';
  const cacheControl = String(rendered.headers['cache-control'] ?? '').toLowerCase();
  if (/\b(private|no-store)\b/.test(cacheControl)) return cacheControl;
  if (String(rendered.headers.vary ?? '').includes('*')) return 'vary: *';
  return null;
}

/**
 * What the renderer sees of a cached request: only what is in the key. The origin is the public
 * one (whatever Host the visitor sent), and `accept` is one of two fixed values, the same test
 * that put JSON or HTML errors in the key (packages/shared/src/errors/errors.ts wantsJson).
 */
export function fillHeaders(request: FastifyRequest, decision: CacheDecision, publicOrigin: string): IncomingHttpHeaders {
  const { rule } = decision;
  const headers: IncomingHttpHeaders = {};
  for (const name of [...PASSED_HEADERS, ...rule.varies.filter((name) => !name.startsWith('cookie:'))]) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const cookie = keyedCookies(request.headers.cookie, rule.varies, decision.pageVaries);
  if (cookie) headers.cookie = cookie;
  const json = wantsJson({ url: request.url, headers: request.headers });
  if (!rule.varies.includes('accept')) headers.accept = json ? 'application/json' : 'text/html,*/*;q=0.8';
  const site = new URL(publicOrigin);
  headers.host = site.host;
  const forwarded = forwardedHeaders(request, headers);
  forwarded['x-forwarded-host'] = site.host;
  forwarded['x-forwarded-proto'] = site.protocol.slice(0, -1);
  return forwarded;
}

/** `renderer()` names the renderer of each fill: one of the current build while builds overlap. */
export function createRendererClient(renderer: () => string, timeoutMs: number) {
  const pool = new Agent({ connections: 64, keepAliveTimeout: 60_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  return {
    async render(path: string, headers: IncomingHttpHeaders): Promise<Rendered> {
      const response = await pool.request({ origin: renderer(), method: 'GET', path, headers: headers as Record<string, string> });
      const body = Buffer.from(await response.body.arrayBuffer());
      return { status: response.statusCode, headers: response.headers, body };
    },
    close: () => pool.close(),
  };
}

export async function toFillResult(key: string, rendered: Rendered, rule: CacheRule, now = Date.now()): Promise<FillResult> {
  // Keys start with the build id: a page another build rendered (a renderer that has not been
  // replaced yet) must not be kept as this build's, or tabs would be sent back to the old build.
  const renderedBy = rendered.headers[BUILD_ID_HEADER];
  const keyBuild = key.slice(0, key.indexOf(':'));
  const reason = typeof renderedBy === 'string' && renderedBy !== keyBuild ? `rendered by build ${renderedBy}` : unstorableReason(rendered);
  if (reason) {
    let claimed = false;
    return { kind: 'uncacheable', rendered, reason, claim: () => !claimed && (claimed = true) };
  }
  return { kind: 'entry', entry: await createEntry(key, rendered, rule, now) };
}
