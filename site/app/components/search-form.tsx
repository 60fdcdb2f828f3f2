/**
 * The plain search form of the header (and its menu, and any page that wants one): a GET to
 * /search with the words in `q`, so it works before hydration and without JavaScript.
 */
export const SEARCH_PAGE = '/search';

export function SearchForm() {
  return (
    <form action={SEARCH_PAGE} method="get" role="search" className="site-search">
      {/* The label wraps the field: the form is drawn twice (bar and menu), so no ids to clash. */}
      <label>
        <span className="sr-only">Search recipes</span>
        <input type="search" name="q" placeholder="Search recipes" enterKeyHint="search" />
      </label>
    </form>
  );
}
