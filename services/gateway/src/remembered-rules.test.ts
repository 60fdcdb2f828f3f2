import { describe, expect, it } from 'vitest';
import { normalizeRouteRules, createRouteRulesMatcher } from '@tern/shared/route-rules/route-rules';
import { rememberMatches } from './remembered-rules.js';

const rules = normalizeRouteRules({
  '/docs/**': { headers: { 'x-docs': '1' } },
  '/docs/old': { redirect: '/docs/new' },
  '/blog/*': { swr: 60 },
});

describe('rememberMatches', () => {
  it('answers as the matcher does, the first time and the next', () => {
    const plain = createRouteRulesMatcher(rules);
    const remembered = rememberMatches(createRouteRulesMatcher(rules));
    for (const path of ['/docs/old', '/docs/a/b', '/blog/post', '/', '/blog/post', '/docs/old', `/docs/${'x'.repeat(300)}`]) {
      expect(remembered.match(path)).toEqual(plain.match(path));
    }
    expect(remembered.size).toBe(plain.size);
  });

  it('hands out answers no caller can change for the next request', () => {
    const remembered = rememberMatches(createRouteRulesMatcher(rules));
    const first = remembered.match('/docs/a');
    expect(() => {
      first.headers!['x-docs'] = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      first.robots = false;
    }).toThrow(TypeError);
    expect(remembered.match('/docs/a').headers).toEqual({ 'x-docs': '1' });
  });
});
