/** The icon service's one config module: where it listens, its memory budget, the sets it preloads. */
import { loadConfig, list, parseConfig, positiveInt, serviceFields, z } from '../../../lib/config.js';

export const ICONS_DEFAULT_PORT = 3003;

/** The sets the site's pages use; loaded at start and never evicted. */
export const DEFAULT_PRELOAD = ['lucide', 'logos'];

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
