/** Builds the real icon service for `app.inject` tests, with its preloaded sets in memory. */
import { createLogger } from '../../../lib/logger.js';
import { buildIconsApp, type IconsApp, type IconsAppOptions } from '../src/app.js';
import { readCatalogue, type Catalogue } from '../src/catalogue.js';

let catalogue: Promise<Catalogue> | undefined;

export function testCatalogue(): Promise<Catalogue> {
  catalogue ??= readCatalogue();
  return catalogue;
}

export async function startIconsApp(overrides: Partial<IconsAppOptions> = {}): Promise<IconsApp> {
  const built = buildIconsApp({
    logger: createLogger({ service: 'icons', level: 'silent', format: 'json' }),
    production: true,
    catalogue: await testCatalogue(),
    memoryLimitBytes: 256 * 1024 * 1024,
    preload: ['lucide'],
    ...overrides,
  });
  await built.preloaded;
  await built.app.ready();
  return built;
}
