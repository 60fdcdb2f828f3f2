/**
 * The search form: a plain GET to /search, so it works before hydration and without JavaScript.
 * `id` names its input, for a label and for pages with two forms.
 */
import type { InputHTMLAttributes, Ref } from 'react';
import { MAX_QUERY_LENGTH } from '../search/query.js';

export interface SearchFormProps {
  id: string;
  defaultValue?: string;
  label?: string;
  /** `page`: the page draws the live results itself (the search page); otherwise a list under the box does (search/live-search.ts). */
  live?: 'page';
  /** Drawn on the input: e.g. the live results' list (search page). */
  inputProps?: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
}

export function SearchForm({ id, defaultValue = '', label = 'Search recipes', live, inputProps }: SearchFormProps) {
  return (
    <form role="search" action="/search" method="get" className="flex gap-2" aria-label={label} data-live-search={live}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        name="q"
        type="search"
        defaultValue={defaultValue}
        maxLength={MAX_QUERY_LENGTH}
        placeholder="Search recipes, e.g. bisect"
        autoComplete="off"
        className="search-input"
        {...inputProps}
      />
      <button type="submit" className="ui-button-soft">
        Search
      </button>
    </form>
  );
}
