/** The gateway's configuration, read once and validated (lib/config.ts). */
import { assetsPrefix, flag, httpUrl, loadConfig, parseConfig, positiveInt, serviceFields, storeFields, z } from '../../../lib/config.js';
import { defaultBuildStoreDir } from '../../../lib/paths.js';

export const gatewayConfigShape = {
  ...serviceFields(3000),
  RENDERER_URL: httpUrl().default('http://127.0.0.1:3001'),
  IMAGE_URL: httpUrl().default('http://127.0.0.1:3002'),
  ICONS_URL: httpUrl().default('http://127.0.0.1:3003'),
  ...storeFields(defaultBuildStoreDir),
  /** Where the build files live: `{ASSETS_PREFIX}builds/latest.json`. */
  ASSETS_PREFIX: assetsPrefix(),
  /** An upstream that sends no headers (or stalls its body) this long gives 504. */
  UPSTREAM_TIMEOUT_MS: positiveInt(10_000),
  /** How often the gateway re-reads the current build besides the store's change events. */
  BUILD_POLL_MS: positiveInt(1000),
  /** Timeout of each upstream /healthz probe made by /readyz. */
  HEALTH_TIMEOUT_MS: positiveInt(1000),
  /** Trust X-Forwarded-* from a proxy in front (a TLS terminator); off: the gateway is the edge. */
  TRUST_PROXY: flag(false),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>>;

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig('gateway', gatewayConfigShape, env);
}

/** For tests: the config with defaults and overrides, throwing instead of exiting. */
export function gatewayConfig(overrides: Record<string, string> = {}): GatewayConfig {
  return parseConfig(gatewayConfigShape, overrides);
}
