/** What a search query may be, and its one canonical spelling (the cache key of its page). Browser-safe. */

export { MAX_QUERY_LENGTH } from './query-length.js';

/** At most this many results are shown. */
export const MAX_RESULTS = 20;

/** NFKC, lowercase, one space between words, no control characters, trimmed: `  Git   Bisect ` → `git bisect`. */
export function canonicalQuery(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
}

/** The phrase a query asks for: the quoted part if any, else the whole query when it has two words or more. */
export function phraseOf(query: string): { phrase: string | null; quoted: boolean } {
  const quoted = /"([^"]+)"/.exec(query)?.[1]?.trim();
  if (quoted) return { phrase: quoted, quoted: true };
  const words = query.replace(/"/g, ' ').trim();
  return { phrase: /\s/.test(words) ? words : null, quoted: false };
}
