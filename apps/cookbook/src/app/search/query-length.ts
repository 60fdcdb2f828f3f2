/**
 * Longer queries are refused with 400: no recipe title comes near it, and it bounds the work. A
 * module of its own: every page's search form reads it, and the rest of query.ts loads with the search.
 */
export const MAX_QUERY_LENGTH = 200;
