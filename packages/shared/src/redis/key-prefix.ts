/**
 * The prefix every Redis key starts with when neither the environment nor the site's `defaults`
 * (which `npm start` hands every service) set REDIS_PREFIX; a site that stores data names its own
 * (e.g. `shop:`). Each store names its own keys under it, in one place each
 * (packages/shared/src/build-store/redis-build-store.ts, redis-asset-store.ts, the gateway's
 * render-cache/redis-store.ts, a site's own stores).
 */
export const DEFAULT_REDIS_PREFIX = 'site:';
