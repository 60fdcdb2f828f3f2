import { describe, expect, it } from 'vitest';
import { pagePathOfPayload, pageSearchOfPayload, payloadPath, payloadUrl, toScriptSafeJson } from './payload.js';

describe('payload paths', () => {
  it('puts _payload.json under the route, and at /_payload.json for /', () => {
    expect(payloadPath('/')).toBe('/_payload.json');
    expect(payloadPath('/category/git')).toBe('/category/git/_payload.json');
    expect(payloadPath('/category/git/')).toBe('/category/git/_payload.json');
  });

  it('carries the build id as the first query key and keeps the page query after it', () => {
    expect(payloadUrl('/', '', 'abc123')).toBe('/_payload.json?abc123');
    expect(payloadUrl('/category/git', '?tab=2', 'abc123')).toBe('/category/git/_payload.json?abc123&tab=2');
  });

  it('maps a payload path back to its page, and nothing else', () => {
    expect(pagePathOfPayload('/_payload.json')).toBe('/');
    expect(pagePathOfPayload('/category/git/_payload.json')).toBe('/category/git');
    expect(pagePathOfPayload('/category/git')).toBeNull();
    expect(pagePathOfPayload('/x_payload.json')).toBeNull();
  });

  it('drops the bare build id from the query and keeps the rest', () => {
    expect(pageSearchOfPayload('?abc123')).toBe('');
    expect(pageSearchOfPayload('abc123&tab=2')).toBe('?tab=2');
    expect(pageSearchOfPayload('?tab=2')).toBe('?tab=2');
  });
});

describe('script-safe JSON', () => {
  it('cannot close the script element or open a comment, and parses back unchanged', () => {
    const value = { html: '</script><script>alert(1)</script><!-- & \u2028\u2029 -->' };
    const json = toScriptSafeJson(value);
    expect(json).not.toMatch(/<\/script/i);
    expect(json).not.toContain('<!--');
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('leaves JSON with nothing to escape as JSON.stringify writes it, and refuses what has no JSON', () => {
    for (const value of ['title', 42, true, null, { id: 'git', n: [1, 2] }, 'only > here'])
      expect(JSON.parse(toScriptSafeJson(value))).toEqual(value);
    expect(toScriptSafeJson({ id: 'git' })).toBe('{"id":"git"}');
    expect(toScriptSafeJson('a > b & c')).toBe('"a \\u003e b \\u0026 c"');
    expect(() => toScriptSafeJson(undefined)).toThrow(/undefined has no JSON/);
  });
});
