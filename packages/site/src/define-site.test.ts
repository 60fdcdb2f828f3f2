import { describe, expect, it } from 'vitest';
import { validSessionCookie } from '@tern/shared/build-store/types';
import { defineSite } from './define-site.js';

const site = { name: 'Tiny', description: 'A site.', app: './app.tsx' };

describe('defineSite', () => {
  it('takes a session cookie only where the build meta would take it too', () => {
    expect(defineSite({ ...site, sessionCookie: 'sid' }).sessionCookie).toBe('sid');
    for (const name of ['a b', 'x'.repeat(129), ''])
      expect(() => defineSite({ ...site, sessionCookie: name }), name.slice(0, 10)).toThrow('is not a cookie name');
    expect(validSessionCookie('x'.repeat(129))).toBe(false);
  });

  it('refuses an empty name and a default that is no variable name', () => {
    expect(() => defineSite({ ...site, name: ' ' })).toThrow('name must not be empty');
    expect(() => defineSite({ ...site, defaults: { 'redis-prefix': 'x:' } })).toThrow(
      'defaults.redis-prefix is not an environment variable name',
    );
  });
});
