/**
 * The cookbook's error codes its pages raise (in the browser too). Its server's own are in
 * server/error-codes.ts, so their messages never reach the first-load JavaScript budget. Browser-safe.
 */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

export const COOKBOOK_ERRORS = defineErrors({
  COOKBOOK_CATEGORY_PAGE_NOT_FOUND: { statusCode: 404, statusMessage: (path: string) => `Page Not Found: ${path}` },
});

