/**
 * The server's search: the index the content build wrote (dist/content/search-index.json), loaded
 * once at start, and the list of queries whose pages may be share-cached.
 */
import { readFile } from 'node:fs/promises';
import MiniSearch from 'minisearch';
import { runSearch } from '../../app/search/run-search.js';
import { INDEX_OPTIONS, type SearchDocument } from '../../app/search/search-options.js';
import type { SearchView } from '../../app/viewer-services.js';
import type { SearchIndexFile } from '../../content/search-index.js';

export interface SearchService extends SearchView {
  /** The index as the browser loads it (`MiniSearch.loadJS`), serialised once. */
  indexJson: string;
}

export function createSearchService(file: SearchIndexFile): SearchService {
  const index = MiniSearch.loadJS<SearchDocument>(file.index, INDEX_OPTIONS);
  const cacheable = new Set(file.cacheable);
  return {
    search: (query) => runSearch(index, query),
    isCacheable: (query) => cacheable.has(query),
    indexJson: JSON.stringify(file.index),
  };
}

export async function loadSearchService(path: string): Promise<SearchService> {
  let parsed: Partial<SearchIndexFile>;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<SearchIndexFile>;
  } catch (error) {
    throw new Error(`cannot read search index ${path} (run \`npm run build:content\`): ${(error as Error).message}`, { cause: error });
  }
  if (parsed.version !== 1 || !parsed.index || !Array.isArray(parsed.cacheable))
    throw new Error(`search index ${path} is not a version 1 index (rebuild it with \`npm run build:content\`)`);
  return createSearchService(parsed as SearchIndexFile);
}
