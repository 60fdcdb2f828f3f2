/**
 * The prefix every Redis key of the platform starts with unless REDIS_PREFIX says otherwise. Each
 * store names its own keys under it, in one place each (lib/build-store/redis-build-store.ts,
 * redis-asset-store.ts, the gateway's render-cache/redis-store.ts, the renderer's users and sessions).
 */
export const DEFAULT_REDIS_PREFIX = 'cookbook:';
