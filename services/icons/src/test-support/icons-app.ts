/** Builds the real icon service for `app.inject` tests, with its preloaded sets in memory. */
import { createLogger } from '@tern/shared/logging/logger';
import { buildIconsApp, type IconsApp, type IconsAppDeps } from '../app.js';
import { readCatalogue, type Catalogue } from '../catalogue.js';
import { parseIconsConfig, type IconsConfig } from '../config.js';

let catalogue: Promise<Catalogue> | undefined;

export function testCatalogue(): Promise<Catalogue> {
  catalogue ??= readCatalogue();
  return catalogue;
}

/** Production settings with 256 MB and lucide preloaded, unless the test names other sets. */
export function testIconsConfig(preload: readonly string[] = ['lucide']): IconsConfig {
  // Set after parsing: an empty ICONS_PRELOAD reads as unset (the default sets), and tests want none.
  return { ...parseIconsConfig({ NODE_ENV: 'production', ICONS_MEMORY_LIMIT_MB: '256' }), ICONS_PRELOAD: [...preload] };
}

export async function startIconsApp(overrides: Partial<IconsAppDeps> & { preload?: readonly string[] } = {}): Promise<IconsApp> {
  const { preload, ...deps } = overrides;
  const built = await buildIconsApp(testIconsConfig(preload), {
    logger: createLogger({ service: 'icons', level: 'silent', format: 'json' }),
    catalogue: await testCatalogue(),
    ...deps,
  });
  await built.preloaded;
  await built.app.ready();
  return built;
}
