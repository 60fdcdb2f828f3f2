/**
 * The cookbook's error page, inside its layout: the status and SPEC's title ('Page Not Found' for
 * 404, 'Internal Server Error' for any other status), a search form and, for a missing page, a
 * search for the words of its path. Loaded on first use (app.ts), never with a page.
 */
import type { SiteErrorPageProps } from '@tern/site/define-site-app';
import { useLocation } from 'react-router';
import { Link } from '@tern/ui/link';
import { DefaultLayout } from '../layouts/default.js';
import { canonicalQuery } from '../search/query.js';
import { SearchForm } from './search-form.js';

/** Route words that say nothing of what was looked for. */
const ROUTE_WORDS = new Set(['category', 'categories', 'recipes', 'recipe', 'tags', 'tag', 'search']);

/** The words of a path (`/recipes/undo-the-last-comit` → `undo the last comit`), for a search. */
export function wordsOfPath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: its raw text has the words too.
  }
  const words = decoded.match(/[\p{L}\p{N}]+/gu) ?? [];
  return canonicalQuery(words.filter((w) => !ROUTE_WORDS.has(w.toLowerCase())).join(' ')).slice(0, 100);
}

export default function SiteErrorPage({ statusCode, statusMessage, message, title }: SiteErrorPageProps) {
  const { pathname } = useLocation();
  const words = statusCode === 404 ? wordsOfPath(pathname) : '';
  return (
    <DefaultLayout>
      <section data-error-page={statusCode} aria-labelledby="error-title" className="space-y-6">
        <div>
          <p className="text-5xl font-bold">{statusCode}</p>
          <h1 id="error-title" className="mt-2 text-2xl font-semibold">
            {title}
          </h1>
          {statusMessage !== title && <p className="mt-3 text-muted">{statusMessage}</p>}
          {message !== statusMessage && <p className="mt-1 text-muted">{message}</p>}
        </div>
        <SearchForm id="error-page-q" defaultValue={words} label="Search the cookbook" />
        <div>
          <h2 className="text-lg font-semibold">Suggestions</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {words && (
              <li>
                <Link to={`/search?${new URLSearchParams({ q: words }).toString()}`} data-suggested-search="">
                  Recipes matching “{words}”
                </Link>
              </li>
            )}
            <li>
              <Link to="/">All categories</Link>
            </li>
            <li>
              <Link to="/search">Search the cookbook</Link>
            </li>
          </ul>
        </div>
      </section>
    </DefaultLayout>
  );
}
