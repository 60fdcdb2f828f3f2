/** The image service's one config module: every IMAGE_* variable, validated once at start. */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { flag, list, loadConfig, parseConfig, positiveInt, serviceFields, z } from '@tern/shared/config/service-config';
import { buildDir, defaultPublicDir } from '@tern/shared/config/paths';
import { FORMAT_FLAGS, type FormatFlag } from './formats.js';

const DEFAULT_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
// A Vite-style content hash (8+ url-safe chars with a digit) right before the extension.
const FINGERPRINT_PATTERN = '[.-](?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{8,64}\\.[a-z0-9]+$';

const regex = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((value) => {
      try {
        new RegExp(value);
        return true;
      } catch {
        return false;
      }
    }, 'expected a valid regular expression');

const widths = (fallback: number[]) =>
  list(fallback.map(String)).transform((values, ctx) => {
    const numbers = values.map(Number);
    if (numbers.every((n) => Number.isInteger(n) && n > 0)) return numbers;
    ctx.addIssue({ code: 'custom', message: 'expected a comma-separated list of positive whole numbers' });
    return z.NEVER;
  });

export const imageConfigShape = {
  ...serviceFields(3002),
  IMAGE_DIR: z.string().min(1, 'expected a folder path').default(defaultPublicDir),
  IMAGE_DOMAINS: list([]),
  IMAGE_MAX_DIMENSION: positiveInt(4096),
  IMAGE_MAX_INPUT_PIXELS: positiveInt(40_000_000),
  IMAGE_MAX_SOURCE_BYTES: positiveInt(20 * 1024 * 1024),
  IMAGE_FETCH_TIMEOUT_MS: positiveInt(5000),
  IMAGE_MAX_REDIRECTS: z.coerce.number({ error: 'expected a whole number from 0 to 10' }).int().min(0).max(10).default(3),
  IMAGE_REMOTE_TTL_S: positiveInt(300),
  IMAGE_CACHE_DIR: z.string().min(1, 'expected a folder path').default(join(buildDir, 'image-cache')),
  IMAGE_CACHE_INDEX_SIZE: positiveInt(5000),
  IMAGE_CACHE_MAX_BYTES: positiveInt(512 * 1024 * 1024),
  /** Hot results also kept in memory, in bytes (items over 512 KB are always read from disk). */
  IMAGE_MEMORY_CACHE_BYTES: positiveInt(64 * 1024 * 1024),
  IMAGE_CONCURRENCY: positiveInt(Math.max(1, availableParallelism())),
  IMAGE_QUEUE_SIZE: positiveInt(64),
  /** libvips' operation cache in MB (0 turns it off) and its threads per transform. */
  IMAGE_LIBVIPS_CACHE_MB: z.coerce.number({ error: 'expected a whole number of MB from 0 to 1024' }).int().min(0).max(1024).default(0),
  IMAGE_LIBVIPS_THREADS: positiveInt(1),
  IMAGE_JOB_TIMEOUT_MS: positiveInt(15_000),
  IMAGE_RETRY_AFTER_S: positiveInt(2),
  /**
   * What one client address may spend on variants not yet cached (address-budget.ts): transform
   * milliseconds per window, and its uncached jobs at once (above a browser's 6 connections per host).
   */
  IMAGE_ADDRESS_BUDGET_MS: positiveInt(20_000),
  IMAGE_ADDRESS_WINDOW_S: positiveInt(60),
  IMAGE_ADDRESS_CONCURRENCY: positiveInt(8),
  IMAGE_ADDRESS_TABLE_SIZE: positiveInt(10_000),
  /** One flag per opt-in output format of formats.ts (IMAGE_AVIF), off by default. */
  ...(Object.fromEntries(FORMAT_FLAGS.map((name) => [name, flag(false)])) as Record<FormatFlag, ReturnType<typeof flag>>),
  IMAGE_SNAP_WIDTHS: flag(true),
  /** Widths kept as asked besides breakpoints x densities: the placeholders @nuxt/image makes. */
  IMAGE_SNAP_EXTRA_WIDTHS: widths([10, 20]),
  IMAGE_CACHE_CONTROL: z.string().min(1, 'expected a Cache-Control value').default(DEFAULT_CACHE_CONTROL),
  IMAGE_CACHE_CONTROL_IMMUTABLE: z.string().min(1, 'expected a Cache-Control value').default(IMMUTABLE_CACHE_CONTROL),
  IMAGE_FINGERPRINT_PATTERN: regex(FINGERPRINT_PATTERN),
};

export type ImageConfig = z.infer<z.ZodObject<typeof imageConfigShape>>;

export function readImageConfig(env: NodeJS.ProcessEnv = process.env): ImageConfig {
  return loadConfig('image', imageConfigShape, env);
}

/** For tests: the defaults with some variables set, throwing on a bad value. */
export function parseImageConfig(env: Record<string, string | undefined> = {}): ImageConfig {
  return parseConfig(imageConfigShape, env);
}
