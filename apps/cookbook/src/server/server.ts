/**
 * The cookbook's server part, started by the renderer: the content (its loaders read it), the
 * accounts (sessions, users, saved recipes) and its API routes (/api/categories, /api/auth,
 * /api/saved). In development it rebuilds the content when a Markdown file changes.
 */
import { defineSiteServer } from '@tern/site/server';
import { join } from 'node:path';
import { siteRoot } from '../site-root.js';
import type { CookbookServices } from '../app/viewer-services.js';
import type { PersonalState } from '../app/personal-state.js';
import { pageViewerOf } from '../app/components/viewer.js';
import { loadContentRepository } from '../content/repository.js';
import { createAccounts, registerAccounts } from './accounts.js';
import site from '../site.js';
import { categoriesApi } from './api/categories.js';
import { parseCookbookConfig } from './config.js';
import { discoveryRoutes } from './discovery/discovery-routes.js';
import { loadSearchService, type SearchService } from './search/search-service.js';

/**
 * The content build (Markdown, shiki's grammars and themes) is loaded in development only: in the
 * server bundle it is a chunk of its own, so a production renderer never holds it (about 14 MB).
 */
async function buildContent(): Promise<void> {
  const { buildContent: build } = await import('../content/build-content.js');
  await build();
}

export default defineSiteServer({
  async start({ logger, env, dev }) {
    const config = parseCookbookConfig(env);
    if (dev) await buildContent();
    const content = await loadContentRepository(config.CONTENT_FILE);
    let search: SearchService = await loadSearchService(config.SEARCH_INDEX_FILE);
    const accounts = await createAccounts({ config, repository: content, logger });
    const services: CookbookServices = { content, search, accounts };
    return {
      services,
      // The personal parts' state (app/personal.tsx) from the session alone; null when anonymous.
      personal: async (request: Request): Promise<PersonalState | null> => {
        const viewer = await accounts.viewer(request);
        return viewer && { viewer: pageViewerOf(viewer), saved: viewer.saved };
      },
      async routes(app) {
        await app.register(categoriesApi, { repository: services.content });
        await app.register(discoveryRoutes, {
          content: () => services.content,
          searchIndexJson: () => search.indexJson,
          site: { name: site.name, description: site.description },
          publicOrigin: config.PUBLIC_ORIGIN,
        });
        await registerAccounts(app, accounts);
      },
      checks: {
        // Sign-in answers 503 with Retry-After meanwhile; the account stores share REDIS_URL with the build store.
        accounts: async () =>
          (await accounts.ping())
            ? 'ok'
            : { state: 'degraded', reason: accounts.unavailableReason() ?? 'the account store does not answer' },
      },
      dev: {
        watch: [join(siteRoot, 'content')],
        async rebuild() {
          await buildContent();
          services.content = await loadContentRepository(config.CONTENT_FILE);
          services.search = search = await loadSearchService(config.SEARCH_INDEX_FILE);
        },
      },
    };
  },
});
