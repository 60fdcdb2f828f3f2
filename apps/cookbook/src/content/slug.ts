/** Slugs: the one rule for category and recipe ids. Browser-safe. */

const SLUG_PATTERN = /^[a-z\d]+(-[a-z\d]+)*$/;
export const SLUG_MAX_LENGTH = 64;

/** True for a lowercase slug: a-z, 0-9 and single inner hyphens, at most 64 characters. */
export function isSlug(value: unknown): value is string {
  return typeof value === 'string' && value.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(value);
}

/** A heading's text as an anchor id: lowercase, accents and punctuation dropped, hyphens between words. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
}
