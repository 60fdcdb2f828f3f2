/** The stretch of a recipe's text a result shows: about 160 characters around the first match. Browser-safe. */

const SNIPPET_LENGTH = 160;

/** The first place `text` holds the phrase, else any of `terms` as a word, else its start. */
function firstMatch(text: string, terms: readonly string[], phrase: string | null): number {
  const lower = text.toLowerCase();
  if (phrase) {
    const at = lower.indexOf(phrase.toLowerCase());
    if (at >= 0) return at;
  }
  let best = -1;
  for (const term of terms) {
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}`, 'u').exec(lower);
    if (match && (best < 0 || match.index < best)) best = match.index;
  }
  return Math.max(best, 0);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function snippetOf(text: string, terms: readonly string[], phrase: string | null): string {
  if (text.length <= SNIPPET_LENGTH) return text;
  const at = firstMatch(text, terms, phrase);
  let start = Math.max(0, at - SNIPPET_LENGTH / 4);
  // Start and end on a word boundary, so no word is cut in two.
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '… ' : ''}${text.slice(start, end).trim()}${end < text.length ? ' …' : ''}`;
}
