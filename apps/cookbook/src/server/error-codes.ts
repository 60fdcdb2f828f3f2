/** The cookbook's error codes only its server raises: sign-in, saved recipes and the categories API. */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

/** The text is the caller's own (the login words, app/login-rules.ts). */
const given = (text: string) => text;

export const COOKBOOK_SERVER_ERRORS = defineErrors({
  COOKBOOK_CROSS_SITE_REFUSED: {
    statusCode: 403,
    message: (claimed: string | null, own: string) =>
      claimed ? `Cross-site request refused: ${claimed} is not ${own}` : 'Cross-site request refused: no Origin or Referer header',
  },
  COOKBOOK_LOGIN_INVALID: { statusCode: 400, statusMessage: 'Invalid login', message: given },
  COOKBOOK_WRONG_CREDENTIALS: { statusCode: 401, message: given },
  COOKBOOK_SIGN_IN_BLOCKED: {
    statusCode: 429,
    message: (minutes: number) => `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  },
  COOKBOOK_SIGN_IN_REQUIRED: { statusCode: 401, message: 'Sign in to save recipes' },
  COOKBOOK_RECIPE_NOT_FOUND: { statusCode: 404, message: (id: string) => `No recipe with the id ${JSON.stringify(id)}` },
  COOKBOOK_SAVED_FORM_INVALID: { statusCode: 400, message: 'The form must say saved=true or saved=false' },
  COOKBOOK_CATEGORY_ID_INVALID: {
    statusCode: 400,
    message: 'Category id must be a lowercase slug: a-z, 0-9 and single hyphens, at most 64 characters',
  },
  COOKBOOK_CATEGORY_NOT_FOUND: { statusCode: 404, message: (id: string) => `Category not found: ${id}` },
});
