/** What a search box is, for the listeners that enhance every one (the header's, the 404 page's, the search page's). */
export const SEARCH_INPUT_SELECTOR = 'form[role=search] input[name=q]';
