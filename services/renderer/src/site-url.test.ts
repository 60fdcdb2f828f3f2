import { describe, expect, it } from 'vitest';
import { siteUrl } from './site-url.js';

describe('siteUrl', () => {
  it.each([
    ['/category/git?x=1', '/category/git', '?x=1'],
    ['//evil.example/x', '/evil.example/x', ''],
    ['/\\evil.example/x', '//evil.example/x', ''],
    ['http://evil.example/x', '/http://evil.example/x', ''],
    ['/a/../b/./c', '/b/c', ''],
  ])('keeps %s a path of this site', (target, pathname, search) => {
    const url = siteUrl(target, 'https://cook.example');
    expect(url.host).toBe('cook.example');
    expect(url.pathname).toBe(pathname);
    expect(url.search).toBe(search);
  });
});
