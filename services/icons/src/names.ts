/** The one name rule of Iconify (`matchIconName`), for collections and icons alike. */
export const ICON_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_NAME_LENGTH = 64;
export const MAX_ICONS_PER_REQUEST = 200;

export function isValidName(value: string): boolean {
  return value.length <= MAX_NAME_LENGTH && ICON_NAME_PATTERN.test(value);
}

export interface RequestedIcons {
  /** Valid names, de-duplicated and sorted: also the cache key. */
  valid: string[];
  /** Names that can never match an icon; they go straight to `not_found`. */
  invalid: string[];
  /** More distinct names than MAX_ICONS_PER_REQUEST were given (parsing stopped there). */
  tooMany: boolean;
}

/**
 * `icons=a,b&icons=c`: every value split on commas, trimmed, empties dropped, de-duplicated and
 * sorted. Stops counting past the maximum so a huge list costs no more than a short one.
 */
export function parseIconNames(query: unknown): RequestedIcons {
  const values = Array.isArray(query) ? query : query === undefined ? [] : [query];
  const distinct = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    for (const part of value.split(',')) {
      const name = part.trim();
      if (name === '') continue;
      distinct.add(name);
      if (distinct.size > MAX_ICONS_PER_REQUEST) return { valid: [], invalid: [], tooMany: true };
    }
  }
  const sorted = [...distinct].sort();
  return {
    valid: sorted.filter(isValidName),
    invalid: sorted.filter((name) => !isValidName(name)),
    tooMany: false,
  };
}
