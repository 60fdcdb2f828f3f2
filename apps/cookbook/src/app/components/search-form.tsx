/**
 * The search form: a plain GET to /search with the words in `q`, so it works before hydration and
 * without JavaScript. The header draws it twice (bar and menu): there the label wraps the field, so
 * no ids clash; a page's own form (search page, 404) names its input by `id` and has a button.
 */
import type { InputHTMLAttributes, Ref } from 'react';
import { MAX_QUERY_LENGTH } from '../search/query-length.js';

export const SEARCH_PAGE = '/search';

export interface SearchFormProps {
  /** A page's form: its input's id, for the label; absent in the header. */
  id?: string;
  defaultValue?: string;
  label?: string;
  /** `page`: the page draws the live results itself (the search page); otherwise a list under the box does (search/live-search.ts). */
  live?: 'page';
  /** Drawn on the input: e.g. the live results' list (search page). */
  inputProps?: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
}

export function SearchForm({ id, defaultValue = '', label = 'Search recipes', live, inputProps }: SearchFormProps) {
  const input = (
    <input
      id={id}
      name="q"
      type="search"
      defaultValue={defaultValue}
      maxLength={MAX_QUERY_LENGTH}
      placeholder={id ? 'Search recipes, e.g. bisect' : 'Search recipes'}
      autoComplete="off"
      enterKeyHint="search"
      className={id ? 'search-input' : undefined}
      {...inputProps}
    />
  );
  if (!id)
    return (
      <form action={SEARCH_PAGE} method="get" role="search" className="site-search">
        <label>
          <span className="sr-only">{label}</span>
          {input}
        </label>
      </form>
    );
  return (
    <form role="search" action={SEARCH_PAGE} method="get" className="flex gap-2" aria-label={label} data-live-search={live}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      {input}
      <button type="submit" className="ui-button-soft">
        Search
      </button>
    </form>
  );
}
