/** Text with the words a search matched in `<mark>`; React escapes every part, so markup in it stays text. */
import { markedParts } from '../search/marked-parts.js';

export function MarkedText({ text, terms }: { text: string; terms: readonly string[] }) {
  return <>{markedParts(text, terms).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : part.text))}</>;
}
