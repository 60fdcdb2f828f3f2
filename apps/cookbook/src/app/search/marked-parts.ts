/** Which words of a result to mark: apart from the snippet code, so a page that only marks words does not carry the search. Browser-safe. */

/** The text cut into plain parts and marked parts: the words that matched (whole words only). */
export function markedParts(text: string, terms: readonly string[]): { text: string; marked: boolean }[] {
  const wanted = new Set(terms.map((t) => t.toLowerCase()));
  const parts: { text: string; marked: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!wanted.has(match[0].toLowerCase())) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index), marked: false });
    parts.push({ text: match[0], marked: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), marked: false });
  return parts;
}
