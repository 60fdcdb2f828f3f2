/**
 * The accounts' addresses, shared by the pages, the header, the accounts client and the server's
 * routes. Its own small module: the header imports it on every page.
 */
export const LOGIN_PAGE = '/login';
export const LOGIN_ROUTE = '/api/auth/login';
export const LOGOUT_ROUTE = '/api/auth/logout';

/** One saved recipe of the visitor: POST saves it, DELETE forgets it (a plain form posts `saved`). */
export const savedRecipeRoute = (recipeId: string): string => `/api/saved/${encodeURIComponent(recipeId)}`;
