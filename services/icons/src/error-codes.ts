/** The icon service's error codes: the collection and icon names asked for, and a collection that would not load. */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

export const ICONS_ERRORS = defineErrors({
  ICONS_INVALID_COLLECTION: {
    statusCode: 400,
    message: 'Invalid collection name: expected lowercase letters, digits and single hyphens',
  },
  ICONS_UNKNOWN_COLLECTION: { statusCode: 404, message: (collection: string) => `Unknown icon collection: ${collection}` },
  ICONS_COLLECTION_LOAD_FAILED: { statusCode: 500, message: (prefix: string) => `Could not load icon collection ${prefix}` },
  ICONS_TOO_MANY: { statusCode: 400, message: (max: number) => `Too many icons: at most ${max} per request` },
  ICONS_NONE_ASKED: { statusCode: 400, message: 'No icons specified: expected ?icons=name1,name2' },
  ICONS_NOT_SVG: { statusCode: 404, message: 'Not found: expected {name}.svg' },
  ICONS_INVALID_NAME: { statusCode: 400, message: 'Invalid icon name: expected lowercase letters, digits and single hyphens' },
  ICONS_UNKNOWN_ICON: { statusCode: 404, message: (prefix: string, name: string) => `Unknown icon: ${prefix}:${name}` },
  ICONS_INVALID_SIZE: {
    statusCode: 400,
    message: (key: string) => `Invalid ${key}: expected a number with an optional unit (px, em, rem, %), auto or unset`,
  },
});
