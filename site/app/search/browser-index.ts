/**
 * The search as the browser runs it while the visitor types: MiniSearch and the index, fetched on
 * first use (a focus on the search box), never with a page's first load.
 */
import MiniSearch from 'minisearch';
import { runSearch, type SearchHit } from './run-search.js';
import { INDEX_OPTIONS, type SearchDocument } from './search-options.js';

export type SearchEngine = (query: string) => SearchHit[];

export const SEARCH_INDEX_URL = '/api/search/index.json';

export async function loadSearchEngine(): Promise<SearchEngine> {
  const response = await fetch(SEARCH_INDEX_URL, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`search index: ${response.status}`);
  const index = MiniSearch.loadJS<SearchDocument>(await response.json(), INDEX_OPTIONS);
  return (query) => runSearch(index, query);
}
