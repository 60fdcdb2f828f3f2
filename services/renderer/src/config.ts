/** The renderer's one config module: read once at start, a bad value stops it with one line. */
import { join } from 'node:path';
import {
  assetStoreFields,
  assetsPrefix,
  httpUrl,
  loadConfig,
  parseConfig,
  positiveInt,
  serviceFields,
  storeFields,
  z,
} from '@tern/shared/config/service-config';
import { BUILD_CHECK_INTERVAL_MS } from '@tern/runtime/shared/app-config';
import { buildDir, defaultBuildStoreDir } from '@tern/shared/config/paths';

export const rendererConfigShape = {
  ...serviceFields(3001),
  /** The site's public address, for canonical URLs; the request's host when unset. */
  PUBLIC_ORIGIN: httpUrl().optional(),
  /** How often the browser checks for a newer build (docs/spec.md §4); tests shorten it. */
  BUILD_CHECK_INTERVAL_MS: positiveInt(BUILD_CHECK_INTERVAL_MS),
  /** Abort a render that has not finished streaming after this long. */
  SSR_STREAM_TIMEOUT_MS: positiveInt(5000),
  ...storeFields(defaultBuildStoreDir),
  ...assetStoreFields(),
  /**
   * This renderer's own address (the pod's, `http://$(POD_IP):3001`): announced in the store so
   * gateways send its build's requests to it while builds overlap. Unset: not announced.
   */
  RENDERER_ADVERTISE_URL: httpUrl().optional(),
  /** How often the renderer repeats its announcement (it expires after three times this). */
  ANNOUNCE_INTERVAL_MS: positiveInt(2000),
  /** After withdrawing on SIGTERM, how long an announced renderer keeps serving before it closes. */
  DRAIN_DELAY_MS: positiveInt(2000),
  ASSETS_PREFIX: assetsPrefix(),
  /** The Vite client build, the SSR bundle (the site's server part inside) and the build meta. */
  CLIENT_DIR: z.string().min(1).default(join(buildDir, 'client')),
  SSR_ENTRY: z
    .string()
    .min(1)
    .default(join(buildDir, 'ssr', 'entry-server.js')),
  BUILD_META_FILE: z
    .string()
    .min(1)
    .default(join(buildDir, 'build', 'meta.json')),
};

export type RendererConfig = ReturnType<typeof parseRendererConfig>;

export function parseRendererConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseConfig(rendererConfigShape, env);
}

export function readRendererConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('renderer', rendererConfigShape, env);
}
