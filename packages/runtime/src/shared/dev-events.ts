/** `npm run dev`: the event the server sends when the site rebuilt its data; open pages reload theirs. Browser-safe. */
export const SITE_DATA_CHANGED_EVENT = 'platform:site-data-changed';
