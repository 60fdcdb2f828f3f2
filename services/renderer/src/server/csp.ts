/**
 * Content-Security-Policy with a fresh nonce per request: only scripts that carry it run (the
 * colour-mode script, the payload, React's bootstrap and streaming scripts); `strict-dynamic`
 * lets them load the app's chunks. Vite's preload helper reads the nonce from a meta tag.
 */
import { randomBytes } from 'node:crypto';

export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'self'",
    "form-action 'self'",
  ].join('; ');
}
