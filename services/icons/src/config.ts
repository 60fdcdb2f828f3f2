/** The icon service's one config module: where it listens, its memory budget, the sets it preloads. */
import { loadConfig, list, parseConfig, positiveInt, serviceFields, z } from '@tern/shared/config/service-config';

export const ICONS_DEFAULT_PORT = 3003;

/**
 * The sets loaded at start and never evicted: none unless the site names them (its `defaults`,
 * which `npm start` and the deployment files hand this service); any other set loads on first use.
 */
export const DEFAULT_PRELOAD: string[] = [];

const COLLECTION_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const iconsConfigShape = {
  ...serviceFields(ICONS_DEFAULT_PORT),
  ICONS_MEMORY_LIMIT_MB: positiveInt(256),
  ICONS_PRELOAD: list(DEFAULT_PRELOAD).refine(
    (names) => names.every((name) => COLLECTION_NAME.test(name)),
    'expected a comma-separated list of collection names such as lucide,mdi',
  ),
};

export type IconsConfig = z.infer<z.ZodObject<typeof iconsConfigShape>>;

export function readIconsConfig(env: NodeJS.ProcessEnv = process.env): IconsConfig {
  return loadConfig('icons', iconsConfigShape, env);
}

/** For tests: throws a ConfigError instead of exiting. */
export function parseIconsConfig(env: NodeJS.ProcessEnv): IconsConfig {
  return parseConfig(iconsConfigShape, env);
}
