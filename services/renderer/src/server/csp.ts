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

const POLICY_REST = ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'self'", "form-action 'self'"].join('; ');

export function contentSecurityPolicy(nonce: string): string {
  return `script-src 'nonce-${nonce}' 'strict-dynamic'; ${POLICY_REST}`;
}
