/**
 * How the recipes are indexed and searched (MiniSearch), shared by the content build that makes
 * the index, the server that answers /search and the browser that searches as the visitor types:
 * the three must tokenise alike. Browser-safe.
 */
import type { Options, SearchOptions } from 'minisearch';

/** One recipe as the index holds it; `title`, `summary` and `tags` are stored to draw a result. */
export interface SearchDocument {
  id: string;
  title: string;
  summary: string;
  tags: string;
  category: string;
  body: string;
}

/** Words: letters and digits, with inner dots, dashes and apostrophes kept apart (`node.js` → node, js). */
export const WORD = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

export const INDEX_OPTIONS: Options<SearchDocument> = {
  fields: ['title', 'summary', 'tags', 'category', 'body'],
  storeFields: ['title', 'summary', 'tags', 'category', 'body'],
  tokenize,
  processTerm: (term) => term.toLowerCase(),
};

/** Titles rank above summaries (and tags) above bodies; a word's start matches; one typo in a word of 4+ letters is forgiven. */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 6, summary: 3, tags: 3, category: 2, body: 1 },
  prefix: (term) => term.length >= 3,
  fuzzy: (term) => (term.length >= 4 ? 1 : false),
  maxFuzzy: 1,
  combineWith: 'OR',
};
