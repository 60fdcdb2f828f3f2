/** Reading the session cookie needs no Fastify plugin: a renderer without accounts registers none. */
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from './limits.js';
import { sessionIdFrom } from './session-cookie.js';

describe('sessionIdFrom', () => {
  it('finds the session among other cookies, decoded, in a process where no cookie plugin was registered', () => {
    expect(sessionIdFrom(`color-mode=system.dark; ${SESSION_COOKIE}=abc%2Fdef; other=1`)).toBe('abc/def');
  });

  it('is undefined without a header, without the cookie, or for a malformed header', () => {
    expect(sessionIdFrom(undefined)).toBeUndefined();
    expect(sessionIdFrom(null)).toBeUndefined();
    expect(sessionIdFrom('other=1')).toBeUndefined();
    expect(sessionIdFrom(';;=;')).toBeUndefined();
  });
});
