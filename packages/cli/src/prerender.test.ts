import { describe, expect, it } from 'vitest';
import { normalizeRouteRules } from '@tern/shared/route-rules/route-rules';
import { crawl, crawlable, internalLinks, publicOriginForBuild, type FetchPage } from './prerender.js';

const rules = normalizeRouteRules({
  '/about': { prerender: true },
  '/': { swr: 60 },
  '/private': { prerender: false },
  '/spa': { ssr: false },
  '/old': { redirect: '/' },
});

const site: Record<string, string> = {
  '/about':
    '<a href="/">home</a><a href="/team?x=1#a">team</a><a href="//evil.example/x">x</a><a href="/logo.svg">l</a><a href="/private">p</a><a href="/spa">s</a><a href="/old">o</a>',
  '/team': '<a href="/about">about</a><a href="/team/alice">alice</a>',
  '/team/alice': '<a href="/team">team</a>',
};
const fetchPage: FetchPage = async (path) =>
  site[path] === undefined
    ? { status: 404, headers: {}, body: Buffer.from('') }
    : { status: 200, headers: {}, body: Buffer.from(site[path]) };

describe('prerender crawler', () => {
  it("names the public origin in prerendered pages, never the run's loopback port", () => {
    expect(publicOriginForBuild('https://cookbook.example/')).toBe('https://cookbook.example');
    expect(publicOriginForBuild(undefined)).toBe('http://localhost:3000');
    expect(publicOriginForBuild('')).toBe('http://localhost:3000');
  });

  it('reads internal page links only (no other hosts, files, queries or hashes)', () => {
    expect(internalLinks(site['/about']!)).toEqual(['/', '/team', '/private', '/spa', '/old']);
  });

  it('leaves pages that chose run-time caching, no SSR, a redirect or prerender: false', () => {
    expect(['/', '/private', '/spa', '/old', '/team'].map((path) => crawlable(rules, path))).toEqual([false, false, false, false, true]);
  });

  it('crawls outward from the seeds, each page once', async () => {
    expect([...(await crawl(rules, fetchPage)).keys()]).toEqual(['/about', '/team', '/team/alice']);
  });

  it('stops on a page that does not answer 200, naming the page that linked to it', async () => {
    const broken: FetchPage = async (path) =>
      path === '/team/alice' ? { status: 500, headers: {}, body: Buffer.from('') } : fetchPage(path);
    await expect(crawl(rules, broken)).rejects.toThrow('prerender: /team/alice answered 500 (linked from /team)');
  });
});
