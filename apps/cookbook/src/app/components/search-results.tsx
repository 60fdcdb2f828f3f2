/** The results of a search: each recipe's title, summary and a stretch of its text, matched words marked. */
import type { SearchHit } from '../search/run-search.js';
import { Link } from '@tern/ui/link';
import { MarkedText } from './marked-text.js';
import { TagChips } from './tag-chips.js';

export function SearchResults({ query, hits }: { query: string; hits: readonly SearchHit[] }) {
  if (hits.length === 0) {
    return (
      <p data-search-results="0" role="status">
        No recipe matches “{query}”. Try fewer or other words, or browse the <Link to="/">categories</Link>.
      </p>
    );
  }
  return (
    <div>
      <p role="status" className="text-sm text-muted">
        {hits.length} {hits.length === 1 ? 'recipe matches' : 'recipes match'} “{query}”
      </p>
      <ol aria-label="Search results" data-search-results={hits.length} className="mt-4 space-y-4">
        {hits.map((hit) => (
          <li key={hit.id} data-search-hit={hit.id} className="rounded-lg border border-default bg-elevated p-4">
            <h2 className="text-lg font-semibold">
              <Link to={`/recipes/${hit.id}`} className="text-primary underline-offset-4 hover:underline">
                <MarkedText text={hit.title} terms={hit.terms} />
              </Link>
            </h2>
            <p className="mt-1 text-sm">
              <MarkedText text={hit.summary} terms={hit.terms} />
            </p>
            <p className="search-snippet mt-1 text-sm text-muted">
              <MarkedText text={hit.snippet} terms={hit.terms} />
            </p>
            <TagChips tags={hit.tags} />
          </li>
        ))}
      </ol>
    </div>
  );
}
