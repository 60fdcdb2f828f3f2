/**
 * The search as the browser runs it while the visitor types: MiniSearch and the index, fetched on
 * first use (a focus on the search box), never with a page's first load.
 */
import { http } from '@tern/runtime/shared/http-client';
import MiniSearch from 'minisearch';
import { runSearch, type SearchHit } from './run-search.js';
import { INDEX_OPTIONS, type SearchDocument } from './search-options.js';

export type SearchEngine = (query: string) => SearchHit[];

export const SEARCH_INDEX_URL = '/api/search/index.json';

let engine: Promise<SearchEngine> | null = null;

/** The engine, its index fetched once for every search box of the page; a failed fetch is tried again on the next call. */
export function loadSearchEngine(): Promise<SearchEngine> {
  engine ??= http<Parameters<typeof MiniSearch.loadJS>[0]>(SEARCH_INDEX_URL).then(
    (json) => {
      const index = MiniSearch.loadJS<SearchDocument>(json, INDEX_OPTIONS);
      return (query: string) => runSearch(index, query);
    },
    (error: unknown) => {
      engine = null;
      throw error;
    },
  );
  return engine;
}
