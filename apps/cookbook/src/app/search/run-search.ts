/**
 * One search over the recipe index: MiniSearch's ranking (fields boosted, prefix, one typo), then
 * exact phrases first: a result holding the whole phrase (`on conflict`) outranks one holding its
 * words apart, and a quoted phrase keeps only those. Browser-safe.
 */
import type MiniSearch from 'minisearch';
import { MAX_RESULTS, phraseOf } from './query.js';
import { SEARCH_OPTIONS, tokenize, type SearchDocument } from './search-options.js';
import { snippetOf } from './snippet.js';

export interface SearchHit {
  id: string;
  title: string;
  summary: string;
  tags: string[];
  /** A stretch of the body around the first matched word. */
  snippet: string;
  /** The indexed words that matched (lowercase), to mark in the text. */
  terms: string[];
  /** Whether the exact phrase of a multi-word query is in it. */
  phrase: boolean;
}

type Stored = Pick<SearchDocument, 'title' | 'summary' | 'tags' | 'category' | 'body'>;

/** Words joined by one space, padded, so a phrase is found only on word boundaries. */
const wordsOf = (text: string) => ` ${tokenize(text.toLowerCase()).join(' ')} `;

/** Phrase boost: above any score MiniSearch gives a result without it. */
const PHRASE_FIRST = 1e6;

export function runSearch(index: MiniSearch<SearchDocument>, query: string): SearchHit[] {
  const { phrase, quoted } = phraseOf(query);
  const phraseWords = phrase ? wordsOf(phrase) : null;
  const found = index.search(query.replace(/"/g, ' '), SEARCH_OPTIONS);
  const hits = found.map((result) => {
    const stored = result as unknown as Stored & { id: string; score: number; terms: string[] };
    const all = `${stored.title}\n${stored.summary}\n${stored.tags}\n${stored.body}`;
    const hasPhrase = phraseWords !== null && phraseWords.trim() !== '' && wordsOf(all).includes(phraseWords);
    return {
      score: stored.score + (hasPhrase ? PHRASE_FIRST : 0),
      hit: {
        id: stored.id,
        title: stored.title,
        summary: stored.summary,
        tags: stored.tags ? stored.tags.split(' ') : [],
        snippet: snippetOf(stored.body, stored.terms, phrase),
        terms: stored.terms,
        phrase: hasPhrase,
      },
    };
  });
  return hits
    .filter(({ hit }) => !quoted || hit.phrase)
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_RESULTS)
    .map(({ hit }) => hit);
}
