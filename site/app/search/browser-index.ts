/**
 * The search as the browser runs it while the visitor types: MiniSearch and the index, fetched on
 * first use (a focus on the search box), never with a page's first load.
 */
import { http } from '../../../services/renderer/src/runtime/shared/http-client.js';
import MiniSearch from 'minisearch';
import { runSearch, type SearchHit } from './run-search.js';
import { INDEX_OPTIONS, type SearchDocument } from './search-options.js';

export type SearchEngine = (query: string) => SearchHit[];

export const SEARCH_INDEX_URL = '/api/search/index.json';

export async function loadSearchEngine(): Promise<SearchEngine> {
  const json = await http<Parameters<typeof MiniSearch.loadJS>[0]>(SEARCH_INDEX_URL);
  const index = MiniSearch.loadJS<SearchDocument>(json, INDEX_OPTIONS);
  return (query) => runSearch(index, query);
}
