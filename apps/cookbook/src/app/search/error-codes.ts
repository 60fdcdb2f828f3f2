/** The search page's own error codes, in its chunk only (no other page's JavaScript carries them). Browser-safe. */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

export const SEARCH_ERRORS = defineErrors({
  COOKBOOK_SEARCH_QUERY_TOO_LONG: {
    statusCode: 400,
    statusMessage: 'Search query too long',
    message: (length: number, max: number) => `A search reads at most ${max} characters; this one has ${length}. Shorten it and search again.`,
  },
});
