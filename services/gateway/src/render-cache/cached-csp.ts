/**
 * A rendered page made safe to serve many times under a strict CSP. The renderer signs its
 * inline scripts with a nonce that must never be served twice, so a page going into the cache
 * loses its nonce and its policy lists the SHA-256 of each inline script instead; module scripts
 * and chunks load as same-origin (`'self'`). No `'unsafe-inline'`, no shared nonce.
 * See docs/decisions/render-cache.md.
 */
import { createHash } from 'node:crypto';

const NONCE_SOURCE = /'nonce-([A-Za-z0-9+/=_-]+)'/;
// Inline scripts: no src attribute. JSON data blocks are not run, so they need no hash.
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', content = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes) || /\btype\s*=\s*["']?application\/(?:ld\+)?json/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

export function cacheableCsp(html: string, policy: string): { html: string; policy: string } {
  const nonce = NONCE_SOURCE.exec(policy)?.[1];
  if (!nonce) return { html, policy };
  const stripped = html.split(` nonce="${nonce}"`).join('');
  const sources = ["'self'", ...inlineScriptHashes(stripped)].join(' ');
  const scriptSrc = /script-src [^;]*/.exec(policy)?.[0];
  const next = scriptSrc ? policy.replace(scriptSrc, `script-src ${sources}`) : policy;
  return { html: stripped, policy: next };
}
