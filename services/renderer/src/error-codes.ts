/**
 * The renderer's error codes only its server raises (page queries). Apart from ../error-codes.ts so
 * none of this ships to the browser.
 */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

export const RENDERER_SERVER_ERRORS = defineErrors({
  RENDERER_LOADER_BAD_RESPONSE: { statusCode: 500, message: 'A loader answered a Response that is not a redirect' },
  RENDERER_PERSONAL_BAD_REQUEST: { statusCode: 400, message: (why: string) => `Bad personal parts request: ${why}` },
});
