/**
 * The search index, built with the content (`npm run build:content` writes
 * dist/content/search-index.json): MiniSearch's serialised index of every recipe, and the queries
 * whose pages the gateway may share-cache (docs/decisions/search.md).
 */
import MiniSearch from 'minisearch';
import { canonicalQuery } from '../app/search/query.js';
import { INDEX_OPTIONS, tokenize, type SearchDocument } from '../app/search/search-options.js';
import type { Category, Recipe } from './types.js';

export interface SearchIndexFile {
  version: 1;
  /** `MiniSearch#toJSON()`, loaded with `MiniSearch.loadJS(index, INDEX_OPTIONS)`. */
  index: ReturnType<MiniSearch<SearchDocument>['toJSON']>;
  /** Canonical queries made of the site's own words (tags, categories, titles and their words): the only ones cached. */
  cacheable: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/**
 * A recipe's HTML as the words a reader sees: tags dropped, entities decoded, whitespace collapsed;
 * a code block's language label (its figcaption) is chrome, not words ("Bash" glued to "git").
 */
export function plainTextOf(html: string): string {
  return html
    .replace(/<(script|style|figcaption)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<\/(p|li|h\d|pre|figure|div|tr)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#?\w+);/g, (whole, name: string) => ENTITIES[name] ?? whole)
    .replace(/\s+/g, ' ')
    .trim();
}

export function searchDocumentOf(recipe: Recipe, category: Category | undefined): SearchDocument {
  return {
    id: recipe.id,
    title: recipe.title,
    summary: recipe.summary,
    tags: recipe.tags.join(' '),
    category: category?.title ?? recipe.categoryId,
    body: plainTextOf(recipe.html),
  };
}

/** Short words add no query worth keeping on its own. */
const MIN_WORD = 3;

function cacheableQueries(recipes: Recipe[], categories: Category[]): string[] {
  const phrases = [
    ...categories.flatMap((c) => [c.id, c.title]),
    ...recipes.flatMap((r) => [r.title, ...r.tags, ...tokenize(r.title).filter((w) => w.length >= MIN_WORD)]),
  ];
  return [...new Set(phrases.map(canonicalQuery).filter(Boolean))].sort();
}

export function buildSearchIndex(recipes: Recipe[], categories: Category[]): SearchIndexFile {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
  index.addAll(recipes.map((recipe) => searchDocumentOf(recipe, byId.get(recipe.categoryId))));
  return { version: 1, index: index.toJSON(), cacheable: cacheableQueries(recipes, categories) };
}
