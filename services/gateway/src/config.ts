/** The gateway's configuration, read once and validated (packages/shared/src/config/service-config.ts). */
import {
  assetsPrefix,
  flag,
  httpUrl,
  loadConfig,
  parseConfig,
  positiveInt,
  serviceFields,
  storeFields,
  assetStoreFields,
  z,
} from '@tern/shared/config/service-config';
import { join } from 'node:path';
import { buildDir, defaultBuildStoreDir } from '@tern/shared/config/paths';
import { trustProxy } from '@tern/shared/http/trust-proxy';

export const gatewayConfigShape = {
  ...serviceFields(3000),
  RENDERER_URL: httpUrl().default('http://127.0.0.1:3001'),
  IMAGE_URL: httpUrl().default('http://127.0.0.1:3002'),
  ICONS_URL: httpUrl().default('http://127.0.0.1:3003'),
  ...storeFields(defaultBuildStoreDir),
  ...assetStoreFields(),
  /** A client build on the gateway's disk, served first (`npm start`); absent in the gateway image. */
  CLIENT_DIR: z.string().min(1).default(join(buildDir, 'client')),
  /** Bytes of client files read from the asset store that each gateway keeps in memory. */
  ASSET_MEMORY_BYTES: positiveInt(32 * 1024 * 1024),
  /** Where the build files live: `{ASSETS_PREFIX}builds/latest.json`. */
  ASSETS_PREFIX: assetsPrefix(),
  /** A client has this long from its first byte to the end of its request's headers (408 after). */
  HEADERS_TIMEOUT_MS: positiveInt(20_000),
  /** A client has this long from its first byte to the end of its whole request, body included (408 after). */
  REQUEST_TIMEOUT_MS: positiveInt(60_000),
  /** An idle kept-alive client connection is closed after this (above a load balancer's usual 60 s). */
  KEEP_ALIVE_TIMEOUT_MS: positiveInt(72_000),
  /** A request body has this long before the floor rate below counts (mod_reqtimeout's `body=`). */
  BODY_GRACE_MS: positiveInt(10_000),
  /** The floor rate of an upload: each byte buys 1/this seconds more; slower is cut with 408. */
  BODY_MIN_BYTES_PER_S: positiveInt(500),
  /** An upstream that sends no headers (or stalls its body) this long gives 504. */
  UPSTREAM_TIMEOUT_MS: positiveInt(10_000),
  /** How often the gateway re-reads the current build besides the store's change events. */
  BUILD_POLL_MS: positiveInt(1000),
  /** How long after start a request may wait for the first build, so it gets the build's route rules (first-build.ts); 0: never. */
  FIRST_BUILD_WAIT_MS: z.coerce
    .number({ error: 'expected a whole number of milliseconds, 0 or more' })
    .int('expected a whole number of milliseconds, 0 or more')
    .min(0, 'expected a whole number of milliseconds, 0 or more')
    .default(5000),
  /** Timeout of each upstream /healthz probe made by /readyz. */
  HEALTH_TIMEOUT_MS: positiveInt(1000),
  /** The proxies in front (a TLS terminator) whose X-Forwarded-* count: a hop count or their addresses; 0: the gateway is the edge. */
  TRUST_PROXY: trustProxy(),
  /** The render cache (route rules swr, isr, cache); off: every page goes to the renderer. */
  RENDER_CACHE: flag(true),
  /** Bytes of cached pages each gateway keeps in memory, in front of the shared store. */
  CACHE_MEMORY_BYTES: positiveInt(64 * 1024 * 1024),
  /** The shared store (Redis) answers within this or counts as a miss. */
  CACHE_STORE_TIMEOUT_MS: positiveInt(100),
  /** Bytes of entries the embedded store (CACHE_DIR) may hold; the least recently written go first. */
  CACHE_FILE_BYTES: positiveInt(256 * 1024 * 1024),
  /** Bytes of entries the Redis store may hold (values and keys); the least recently written go first. */
  CACHE_REDIS_BYTES: positiveInt(256 * 1024 * 1024),
  /** The site's origin: the one cached pages name and are keyed by, whatever Host a request sent. */
  PUBLIC_ORIGIN: httpUrl().optional(),
  /** How long a gateway waits for another gateway's render of the same page before rendering itself. */
  CACHE_LOCK_WAIT_MS: positiveInt(2000),
  /** How long a signed-in visitor's personal parts may take before their anonymous state is served (personal-holes.ts). */
  PERSONAL_PARTS_BUDGET_MS: positiveInt(50),
  /**
   * How long a gateway keeps a signed-in visitor's parts for their next page (personal-parts-memory.ts):
   * a session ended elsewhere (another device, expired, revoked) shows within this; a change the
   * visitor makes, at once. 0 asks the renderer for every page.
   */
  PERSONAL_PARTS_TTL_MS: z.coerce.number({ error: 'expected a whole number of ms, 0 or more' }).int().min(0).default(30_000),
  /** The most bytes of visitors' parts each gateway keeps (the least recently used go first). */
  PERSONAL_PARTS_MEMORY_BYTES: positiveInt(16 * 1024 * 1024),
  /** The embedded mode's shared store (files); with REDIS_URL the cache is in Redis. */
  CACHE_DIR: z.string().min(1).default(join(buildDir, 'render-cache')),
  /** Pages rendered at build time (`prerender: true` rules), written by `npm run build`. */
  PRERENDER_DIR: z.string().min(1).default(join(buildDir, 'prerender')),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>>;

/**
 * PUBLIC_ORIGIN without a trailing slash; unset, the address `npm start` serves on, the one
 * `npm run build` gives prerendered pages (packages/cli/src/prerender.ts): every replica keys alike.
 */
export function publicOriginOf(config: Pick<GatewayConfig, 'PUBLIC_ORIGIN'>): string {
  return config.PUBLIC_ORIGIN ? new URL(config.PUBLIC_ORIGIN).origin : 'http://localhost:3000';
}

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig('gateway', gatewayConfigShape, env);
}

/** For tests: the config with defaults and overrides, throwing instead of exiting. */
export function parseGatewayConfig(overrides: Record<string, string> = {}): GatewayConfig {
  return parseConfig(gatewayConfigShape, overrides);
}
