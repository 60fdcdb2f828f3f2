/**
 * Content-Security-Policy with a fresh nonce per request: only scripts that carry it run (the
 * colour-mode script, the payload, React's bootstrap and streaming scripts); `strict-dynamic`
 * lets them load the app's chunks. Vite's preload helper reads the nonce from a meta tag.
 */
import { randomFillSync } from 'node:crypto';

const NONCE_BYTES = 16;
// One CSPRNG call per 256 nonces instead of one per request; each nonce is used once.
const pool = Buffer.alloc(NONCE_BYTES * 256);
let offset = pool.length;

export function createNonce(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const nonce = pool.toString('base64', offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}

// Everything the site loads is its own (pages, chunks, /_ipx images, /api icons), plus the public
// Iconify API the icon loader falls back to. Styles allow inline: Radix and React set style
// attributes; scripts never run inline without the nonce (or, cached, their hash).
const POLICY_REST = [
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');
const CONNECT = ["'self'", 'https://api.iconify.design'];

/** `connect` adds sources the page may fetch from (development: Vite's HMR WebSocket). */
export function contentSecurityPolicy(nonce: string, connect: readonly string[] = []): string {
  return `default-src 'self'; script-src 'nonce-${nonce}' 'strict-dynamic'; connect-src ${[...CONNECT, ...connect].join(' ')}; ${POLICY_REST}`;
}

/** Powerful features the site never uses: off for it and for anything it could be made to embed. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()';
/** Pages get their own browsing context group: no cross-origin opener keeps a handle on them. */
export const OPENER_POLICY = 'same-origin';

/** The security headers of every HTML document the renderer sends. */
export function documentSecurityHeaders(nonce: string, connect?: readonly string[]): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(nonce, connect),
    'permissions-policy': PERMISSIONS_POLICY,
    'cross-origin-opener-policy': OPENER_POLICY,
  };
}
