/**
 * Issue 31's pages through the whole stack: search (ranking, bad input, escaping, what the gateway
 * keeps), a page per recipe and per tag with their head tags, the 404 inside the site, and the
 * sitemap, robots.txt and feed.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_USER_AGENT } from '../support/chromium.js';
import { startStack, type Stack } from '../support/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ redis: false, env: { DEMO_ACCOUNT: 'false' } });
});
afterAll(async () => {
  await stack?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${path}`, { redirect: 'manual', headers: { accept: 'text/html', 'user-agent': PERSON_USER_AGENT, ...headers } });
const html = async (path: string) => {
  const response = await get(path);
  return { status: response.status, headers: response.headers, body: await response.text() };
};
/** A well-formed document (fast-xml-parser's validator), parsed; attributes as `@_name`, repeated elements as arrays. */
function parseXml(xml: string): unknown {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  return new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' || name === 'entry' }).parse(xml);
}

const hitIds = (body: string) => [...body.matchAll(/data-search-hit="([a-z0-9-]+)"/g)].map((m) => m[1]);

describe('search', () => {
  it('answers a query on the server, best first, the matched words marked', async () => {
    const { status, body } = await html('/search?q=bisekt');
    expect(status).toBe(200);
    expect(hitIds(body)[0]).toBe('find-a-regression-with-bisect');
    expect(body).toMatch(/<mark>bisect<\/mark>/);
    expect(body).toContain('href="/recipes/find-a-regression-with-bisect"');
    expect(body).toContain('<title>Search: bisekt | Cookbook</title>');
  });

  it('ranks the exact phrase first', async () => {
    expect(hitIds((await html('/search?q=on+conflict')).body)[0]).toBe('upsert-with-on-conflict');
  });

  it('invites a search when the query is empty', async () => {
    const { status, body } = await html('/search');
    expect(status).toBe(200);
    expect(body).toContain('data-search-invite');
    expect(body).toMatch(/<form[^>]*action="\/search"[^>]*method="get"/);
    expect(body).toContain('aria-label="Popular tags"');
  });

  it('redirects a query to its one spelling', async () => {
    const response = await get('/search?q=%20%20Git%20%20Bisect%20');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/search?q=git+bisect');
    expect((await get('/search?q=%20')).headers.get('location')).toBe('/search');
  });

  it('answers a 6,000-character query with a 400 that says why, in the site', async () => {
    const { status, body } = await html(`/search?q=${'a'.repeat(6000)}`);
    expect(status).toBe(400);
    expect(body).toContain('Search query too long');
    expect(body).toContain('at most 200 characters; this one has 6000');
    expect(body).toContain('data-layout="default"');
    const json = await get(`/search?q=${'a'.repeat(6000)}`, { accept: 'application/json' });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ statusCode: 400, statusMessage: 'Search query too long' });
  });

  it('escapes markup in a query', async () => {
    const { status, body } = await html(`/search?q=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(status).toBe(200);
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('shares a query of the site’s own words from the render cache, and never one a client makes up', async () => {
    await get('/search?q=docker');
    const again = await get('/search?q=docker');
    expect(again.headers.get('x-cache')).toBe('HIT');
    for (let i = 0; i < 2; i++) {
      const response = await get('/search?q=docker+zzzz');
      expect(response.headers.get('cache-control')).toContain('private');
      expect(response.headers.get('x-cache')).not.toBe('HIT');
    }
    // Other parameters reach neither the key nor the render.
    expect((await get('/search?q=docker&utm_source=x')).headers.get('x-cache')).toBe('HIT');
  });

  it('serves the index the browser loads on first use', async () => {
    const response = await get('/api/search/index.json', { accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()) as object).toHaveProperty('documentCount', 32);
  });
});

describe('a page per recipe', () => {
  it('has its own title, description, canonical URL, Open Graph, Twitter and JSON-LD', async () => {
    const { status, body } = await html('/recipes/find-a-regression-with-bisect');
    expect(status).toBe(200);
    expect(body).toContain('<title>Find the commit that broke something with git bisect | Cookbook</title>');
    expect(body).toMatch(/<meta name="description" content="Binary-search the history/);
    // On the public origin the gateway renders cached pages for (PUBLIC_ORIGIN), whatever Host was asked.
    const canonical = /<link rel="canonical" href="(http[^"]+\/recipes\/find-a-regression-with-bisect)">/.exec(body)?.[1];
    expect(canonical).toBeDefined();
    expect(body).toContain(`<meta property="og:url" content="${canonical}">`);
    expect(body).toContain('<meta property="og:type" content="article">');
    expect(body).toMatch(/<meta property="og:title" content="Find the commit that broke something with git bisect \| Cookbook">/);
    expect(body).toMatch(/<meta property="og:image" content="http[^"]+\/images\//);
    expect(body).toContain('<meta name="twitter:card" content="summary_large_image">');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(body)?.[1];
    expect(JSON.parse(ld ?? 'null')).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'TechArticle',
      headline: 'Find the commit that broke something with git bisect',
      url: canonical,
    });
    expect(body).toContain('href="/tags/bisect"');
    expect(body).toContain('href="/category/git"');
  });

  it('is cached like the category pages', async () => {
    await get('/recipes/undo-last-commit');
    expect((await get('/recipes/undo-last-commit')).headers.get('x-cache')).toBe('HIT');
  });

  it('is linked from its category page, whose anchors stay', async () => {
    const { body } = await html('/category/git');
    expect(body).toContain('href="/recipes/undo-last-commit"');
    expect(body).toMatch(/<section id="undo-last-commit"/);
    expect(body).toContain('href="/tags/git"');
  });

  it('is SPEC’s 404 for an unknown or malformed slug', async () => {
    for (const path of ['/recipes/no-such-recipe', '/recipes/Not_A_Slug']) {
      const { status, body } = await html(path);
      expect(status, path).toBe(404);
      expect(body).toContain('Page Not Found');
    }
  });
});

describe('tag pages', () => {
  it('list the recipes of a tag', async () => {
    const { status, body } = await html('/tags/bisect');
    expect(status).toBe(200);
    expect(body).toContain('href="/recipes/find-a-regression-with-bisect"');
    expect(body).toContain('<title>Recipes tagged bisect | Cookbook</title>');
  });

  it('are a 404 for an unknown tag', async () => {
    expect((await html('/tags/no-such-tag')).status).toBe(404);
  });
});

describe('the 404 page', () => {
  it('sits in the layout with a search form and a search for the words of the path', async () => {
    const { status, body } = await html('/recipes-of/undo-commit');
    expect(status).toBe(404);
    expect(body).toContain('<title>404 - Page Not Found | Cookbook</title>');
    expect(body).toContain('data-layout="default"');
    expect(body).toMatch(/<h1[^>]*>Page Not Found<\/h1>/);
    expect(body).toMatch(/<input[^>]*name="q"[^>]*value="of undo commit"/);
    expect(body).toContain('href="/search?q=of+undo+commit"');
  });

  it('keeps SPEC’s title for other statuses', async () => {
    const { body } = await html(`/search?q=${'a'.repeat(300)}`);
    expect(body).toMatch(/<h1[^>]*>Internal Server Error<\/h1>/);
  });
});

describe('sitemap, robots.txt and feed', () => {
  it('/sitemap.xml names every category, recipe and tag page, absolute', async () => {
    const response = await get('/sitemap.xml', { accept: '*/*' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const { urlset } = parseXml(xml) as { urlset: { '@_xmlns': string; url: { loc: string }[] } };
    expect(urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = urlset.url.map((u) => u.loc);
    expect(locs.filter((l) => l.includes('/category/'))).toHaveLength(8);
    expect(locs.filter((l) => l.includes('/recipes/'))).toHaveLength(32);
    expect(locs).toContain(`${stack.url}/tags/bisect`);
    expect(locs.every((l) => l.startsWith(stack.url))).toBe(true);
  });

  it('/robots.txt names the sitemap', async () => {
    const response = await get('/robots.txt', { accept: '*/*' });
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toContain(`Sitemap: ${stack.url}/sitemap.xml`);
  });

  it('/feed.xml is an Atom feed of every recipe', async () => {
    const response = await get('/feed.xml', { accept: '*/*' });
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const { feed } = parseXml(await response.text()) as {
      feed: {
        '@_xmlns': string;
        id: string;
        updated: string;
        entry: { id: string; title: string; link: { '@_href': string }; updated: string }[];
      };
    };
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(Number.isNaN(Date.parse(feed.updated))).toBe(false);
    expect(feed.entry).toHaveLength(32);
    const bisect = feed.entry.find((e) => e.id === `${stack.url}/recipes/find-a-regression-with-bisect`);
    expect(bisect?.link['@_href']).toBe(`${stack.url}/recipes/find-a-regression-with-bisect`);
    expect(bisect?.title).toMatch(/bisect/i);
  });
});
