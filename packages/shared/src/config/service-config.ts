/**
 * Configuration is read once per service, validated with zod, and a bad value stops the
 * service at start with one line that names the variable and what it expected.
 */
import { z } from 'zod';
import { DEFAULT_ASSETS_PREFIX, normalizeAssetsPrefix } from '../url-space/assets-prefix.js';
import { DEFAULT_REDIS_PREFIX } from '../redis/key-prefix.js';
import { withSiteDefaults } from './site-defaults.js';

export { z };

/** A TCP port, as `PORT` and friends are given. */
const portNumber = () =>
  z.coerce
    .number({ error: 'expected a whole number from 0 to 65535' })
    .int('expected a whole number from 0 to 65535')
    .min(0, 'expected a whole number from 0 to 65535')
    .max(65535, 'expected a whole number from 0 to 65535');

export const port = (fallback: number) => portNumber().default(fallback);

/** An absolute http(s) URL, such as an upstream address. */
export const httpUrl = () =>
  z
    .string()
    .url('expected an absolute URL such as http://127.0.0.1:3001')
    .refine((value) => /^https?:\/\//.test(value), 'expected an http:// or https:// URL')
    .transform((value) => value.replace(/\/+$/, ''));

/** A positive whole number of milliseconds (or bytes, or items). */
export const positiveInt = (fallback: number) =>
  z.coerce
    .number({ error: 'expected a positive whole number' })
    .int('expected a positive whole number')
    .positive('expected a positive whole number')
    .default(fallback);

/** `true/false/1/0/yes/no/on/off`, case-insensitive. */
export const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const v = value.toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off'].includes(v)) return false;
      ctx.addIssue({ code: 'custom', message: 'expected true or false' });
      return z.NEVER;
    });

/** A comma-separated list, trimmed, empties dropped. */
export const list = (fallback: string[] = []) =>
  z
    .string()
    .optional()
    .transform((value) =>
      value === undefined
        ? fallback
        : value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    );

export const logLevel = () =>
  z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'expected one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info');

export const nodeEnv = () =>
  z
    .enum(['production', 'development', 'test'], {
      error: 'expected production, development or test',
    })
    .default('development');

/** The fields every service shares: where it listens and how it logs. */
export const serviceFields = (defaultPort: number) => ({
  PORT: port(defaultPort),
  HOST: z.string().min(1, 'expected a host name or address').default('127.0.0.1'),
  NODE_ENV: nodeEnv(),
  LOG_LEVEL: logLevel(),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'expected json or pretty' }).optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  /** The Prometheus listener (`/metrics`); unset: PORT + 1000 (checked in parseConfig), 0: off. */
  METRICS_PORT: portNumber().optional(),
  /** OpenTelemetry export (OTLP/HTTP) to this collector; unset: no export and no SDK loaded. */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl().optional(),
});

/** METRICS_PORT unset defaults to PORT + 1000; that must still be a port, or the service says so at start. */
function checkMetricsPort(shape: z.ZodRawShape, data: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  if (!('METRICS_PORT' in shape) || data.METRICS_PORT !== undefined || typeof data.PORT !== 'number') return;
  if (data.PORT + 1000 > 65535) {
    throw new ConfigError(
      'METRICS_PORT',
      `PORT + 1000 (${data.PORT + 1000}) is above 65535: set METRICS_PORT (0 turns metrics off)`,
      env.METRICS_PORT,
    );
  }
}

/** `ASSETS_PREFIX`: where the client build and the build files are served, normalised (`/_nuxt/`). */
export const assetsPrefix = () =>
  z
    .string()
    .default(DEFAULT_ASSETS_PREFIX)
    .refine((value) => {
      try {
        normalizeAssetsPrefix(value);
        return true;
      } catch {
        return false;
      }
    }, 'expected a plain path such as /_nuxt/')
    .transform((value) => normalizeAssetsPrefix(value));

/** Redis, and the prefix of every key the platform and the site write. */
export const redisFields = () => ({
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/./, 'expected a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: z.string().min(1, 'expected a key prefix such as app:').default(DEFAULT_REDIS_PREFIX),
});

/** Where the build store (and the site's own data) live: Redis or files. */
export const storeFields = (defaultDir: string) => ({
  ...redisFields(),
  BUILD_STORE_DIR: z.string().min(1, 'expected a directory').default(defaultDir),
});

/** The shared client files of recent builds (packages/shared/src/build-store/asset-types.ts): how many builds, how long. */
export const assetStoreFields = () => ({
  /** Builds whose hashed client files stay in the store for tabs still running them. */
  ASSET_BUILDS_KEPT: positiveInt(5),
  /** A file leaves the store this long after its build last published or touched it (7 days). */
  ASSET_TTL_MS: positiveInt(7 * 24 * 60 * 60 * 1000),
});

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly expected: string,
    readonly received: string | undefined,
  ) {
    const got = received === undefined ? 'it is not set' : `got ${JSON.stringify(received)}`;
    super(`invalid configuration: ${variable}: ${expected} (${got})`);
    this.name = 'ConfigError';
  }
}

/** Parses `env` against `shape`; throws a ConfigError naming the first bad variable. */
export function parseConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  // `VAR=` in a .env file or compose means "not set", so empty values take the default.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = z.object(shape).safeParse(present);
  if (result.success) {
    checkMetricsPort(shape, result.data, env);
    return result.data;
  }
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? '?');
  throw new ConfigError(variable, issue.message, env[variable]);
}

/**
 * Reads the config or stops the process: one line on stderr, exit code 1. `env` goes over the built
 * site's defaults (packages/shared/src/config/site-defaults.ts), so a service started alone (a container run by hand)
 * keeps the site's Redis prefix.
 * Used by each service's `main.ts`; tests call `parseConfig` directly.
 */
export function loadConfig<S extends z.ZodRawShape>(
  service: string,
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  try {
    return parseConfig(shape, withSiteDefaults(env));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${service}: ${error.message}\n`);
    process.exit(1);
  }
}
