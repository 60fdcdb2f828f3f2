import { describe, expect, it } from 'vitest';
import { sitePath, siteUrl } from './site-url.js';

describe('sitePath and siteUrl', () => {
  it.each([
    ['/category/git?x=1', '/category/git', '?x=1'],
    ['//evil.example/x', '/evil.example/x', ''],
    ['/\\evil.example/x', '//evil.example/x', ''],
    ['http://evil.example/x', '/http://evil.example/x', ''],
    ['/a/../b/./c', '/b/c', ''],
  ])('keeps %s a path of this site', (target, pathname, search) => {
    // After an origin, as the renderer's requests are made (fetch-request.ts, personal-response.ts).
    const url = new URL(`https://cook.example${sitePath(target)}`);
    expect(url.host).toBe('cook.example');
    expect(url.pathname).toBe(pathname);
    expect(url.search).toBe(search);
    const read = siteUrl(target);
    expect(read.host).toBe('site.invalid');
    expect(read.pathname).toBe(pathname);
    expect(read.search).toBe(search);
  });
});
