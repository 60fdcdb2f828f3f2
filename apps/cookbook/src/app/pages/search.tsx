/**
 * `/search?q=`: rendered on the server, so it works without JavaScript; with it, results follow
 * the typing (search/use-live-search.ts; `/` and Ctrl+K come from search/search-enhancer.ts). The query is read in one canonical spelling (others are
 * redirected to it); too long a query is a 400. Which pages the gateway may keep: docs/decisions/search.md.
 */
import type { HeadContext, PageHead } from '@tern/runtime/shared/head';
import { navigate } from '@tern/runtime/shared/navigate';
import { useEffect, useRef } from 'react';
import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { createError } from '@tern/shared/errors/errors';
import { SearchForm } from '../components/search-form.js';
import { TagChips } from '../components/tag-chips.js';
import { SearchResults } from '../components/search-results.js';
import { canonicalQuery, MAX_QUERY_LENGTH } from '../search/query.js';
import { SEARCH_ERRORS } from '../search/error-codes.js';
import { useLiveSearch } from '../search/use-live-search.js';
import { servicesOf } from '../viewer-services.js';

/** How many tags the empty search page suggests. */
const SUGGESTED_TAGS = 12;

/** Not for a shared cache: a query outside the build's own words, or without results. */
const NOT_SHARED = { headers: { 'cache-control': 'private, no-cache' } };

/** The same for every visitor: signed-in visitors get it from the cache, their header filled in (personal.tsx). */
export const personal = 'parts';

export async function loader({ context, request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('q') ?? '';
  if (raw.length > MAX_QUERY_LENGTH) throw createError(SEARCH_ERRORS.COOKBOOK_SEARCH_QUERY_TOO_LONG(raw.length, MAX_QUERY_LENGTH));
  const query = canonicalQuery(raw);
  if (query !== raw) await navigate(query ? `/search?${new URLSearchParams({ q: query }).toString()}` : '/search', { redirectCode: 301 });
  const { content, search } = servicesOf(context);
  if (!query) {
    const tags = content.tags().sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
    return { query, hits: null, tags: tags.slice(0, SUGGESTED_TAGS).map((t) => t.tag) };
  }
  const hits = search.search(query);
  const result = { query, hits, tags: [] };
  return hits.length > 0 && search.isCacheable(query) ? result : data(result, NOT_SHARED);
}

type Data = Awaited<ReturnType<typeof loader>>;

export function head({ data: loaded }: HeadContext): PageHead {
  const { query } = loaded as Exclude<Data, { init: unknown }>;
  return {
    title: query ? `Search: ${query}` : 'Search',
    description: query ? `Cookbook recipes matching “${query}”.` : 'Search the cookbook’s recipes by title, summary and text.',
    robots: false,
  };
}

export default function SearchPage() {
  const { query, hits, tags } = useLoaderData<typeof loader>();
  const { live, warm, onInput } = useLiveSearch();
  const input = useRef<HTMLInputElement>(null);
  // A new server answer (a submitted form, a link) replaces what was typed before it.
  useEffect(() => {
    if (input.current && input.current.value !== query) input.current.value = query;
  }, [query]);
  const shown = live ?? (hits ? { query, hits } : null);
  return (
    <section data-page="search" aria-labelledby="search-title" className="space-y-6">
      <h1 id="search-title" className="text-3xl font-bold">
        Search
      </h1>
      <SearchForm
        id="search-page-q"
        live="page"
        defaultValue={query}
        inputProps={{ ref: input, onFocus: warm, onInput: (event) => onInput(event.currentTarget.value), 'aria-controls': 'search-output' }}
      />
      <div id="search-output" aria-live="polite">
        {shown && shown.query ? (
          <SearchResults query={shown.query} hits={shown.hits} />
        ) : (
          <div data-search-invite="">
            <p>Type a word or two: a title, a tool, a command. A typo is forgiven; quotes find an exact phrase.</p>
            <TagChips tags={tags} label="Popular tags" className="mt-4 text-sm" />
          </div>
        )}
      </div>
    </section>
  );
}
