/**
 * The search over the real content (built here, as `npm run build:content` does): ranking by
 * field, one typo forgiven, phrases first, matched words marked, the cacheable queries.
 */
import MiniSearch from 'minisearch';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildContent } from './build-content.js';
import { buildSearchIndex, plainTextOf } from './search-index.js';
import { createSearchService, type SearchService } from '../server/search/search-service.js';
import { runSearch } from '../app/search/run-search.js';
import { INDEX_OPTIONS, type SearchDocument } from '../app/search/search-options.js';
import type { ContentFile } from './types.js';

let content: ContentFile;
let search: SearchService;
const ids = (query: string) => search.search(query).map((hit) => hit.id);

beforeAll(async () => {
  content = await buildContent({ outDir: null });
  // Through JSON, as the server and the browser load it.
  search = createSearchService(JSON.parse(JSON.stringify(buildSearchIndex(content.recipes, content.categories))));
}, 60_000);

describe('search over the cookbook', () => {
  it('finds the bisect recipe first, and with one typo', () => {
    expect(ids('bisect')[0]).toBe('find-a-regression-with-bisect');
    expect(ids('bisekt')[0]).toBe('find-a-regression-with-bisect');
    expect(ids('bisct')[0]).toBe('find-a-regression-with-bisect');
  });

  it('finds the upsert recipe for the phrase "on conflict", marked as a phrase match, before any other', () => {
    const hits = search.search('on conflict');
    expect(hits[0]?.id).toBe('upsert-with-on-conflict');
    expect(hits[0]?.phrase).toBe(true);
    expect(hits.filter((hit) => hit.phrase).map((hit) => hit.id)).toContain('upsert-with-on-conflict');
    // A quoted phrase keeps only the recipes that hold it.
    expect(search.search('"on conflict"').every((hit) => hit.phrase)).toBe(true);
  });

  it('ranks a title above a summary above a body', () => {
    // One index of three made-up recipes, each with the word in one field only.
    const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
    const doc = (id: string, fields: Partial<SearchDocument>): SearchDocument => ({
      id,
      title: 'Something',
      summary: 'Else entirely.',
      tags: 'misc',
      category: 'Misc',
      body: 'Nothing to see here, only words that fill the body of a recipe.',
      ...fields,
    });
    index.addAll([
      doc('in-body', { body: 'Here the zebra word sits in the body of a long text about other things.' }),
      doc('in-summary', { summary: 'A zebra in the summary.' }),
      doc('in-title', { title: 'Zebra crossing' }),
    ]);
    expect(runSearch(index, 'zebra').map((hit) => hit.id)).toEqual(['in-title', 'in-summary', 'in-body']);
  });

  it('returns the words that matched, so the page can mark them', () => {
    const [hit] = search.search('bisekt');
    expect(hit?.terms).toContain('bisect');
    expect(hit?.snippet.toLowerCase()).toContain('bisect');
  });

  it('finds nothing for words the cookbook does not have', () => {
    expect(ids('qwxzvbnm')).toEqual([]);
  });

  it('keeps the index of plain text: no tags, entities decoded', () => {
    expect(plainTextOf('<p>a &lt;b&gt; &amp; <code>c</code></p><pre><span>d</span></pre>')).toBe('a <b> & c d');
    // A code block's language label is not a word of the recipe.
    expect(plainTextOf('<p>By hand</p><figure><figcaption data-code-language>Bash</figcaption><pre><code>git</code></pre></figure>')).toBe(
      'By hand git',
    );
    const body = JSON.stringify(buildSearchIndex(content.recipes, content.categories));
    expect(body).not.toMatch(/<span style=/);
  });

  it('caches only queries made of the build’s own words', () => {
    expect(search.isCacheable('git')).toBe(true);
    expect(search.isCacheable('bisect')).toBe(true);
    expect(search.isCacheable('bisekt')).toBe(false);
    expect(search.isCacheable('git ' + 'x'.repeat(50))).toBe(false);
  });
});
