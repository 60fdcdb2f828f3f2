/**
 * The cookbook's error codes its pages raise (in the browser too). Its server's own are in
 * server/error-codes.ts, so their messages never reach the first-load JavaScript budget. Browser-safe.
 */
import { defineErrors } from '#lib/error-catalogue.js';

export const COOKBOOK_ERRORS = defineErrors({
  COOKBOOK_CATEGORY_PAGE_NOT_FOUND: { statusCode: 404, statusMessage: (path: string) => `Page Not Found: ${path}` },
});

/** A recipe or tag page for a slug the content does not have: SPEC's 404, as a failed route validation. */
export const COOKBOOK_PAGE_ERRORS = defineErrors({
  COOKBOOK_PAGE_NOT_FOUND: { statusCode: 404, statusMessage: (path: string) => `Page Not Found: ${path}` },
  COOKBOOK_SEARCH_QUERY_TOO_LONG: {
    statusCode: 400,
    statusMessage: 'Search query too long',
    message: (length: number, max: number) => `A search reads at most ${max} characters; this one has ${length}. Shorten it and search again.`,
  },
});
