/**
 * The site's files for crawlers and readers: `/sitemap.xml`, `/robots.txt`, `/feed.xml`, and the
 * search index the browser loads on first use (`/api/search/index.json`). Each changes only with a
 * build, so each may be kept an hour by browsers and shared caches.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ContentRepository } from '../../content/types.js';
import { atomFeed } from './atom-feed.js';
import { originFor } from './site-urls.js';
import { robotsTxt, sitemapXml } from './sitemap.js';

export interface DiscoveryOptions {
  content: () => ContentRepository;
  searchIndexJson: () => string;
  site: { name: string; description: string };
  publicOrigin: string | undefined;
}

const CACHE_CONTROL = 'public, max-age=3600';

export const discoveryRoutes: FastifyPluginAsync<DiscoveryOptions> = async function discoveryRoutes(app, options) {
  const origin = (request: Parameters<typeof originFor>[0]) => originFor(request, options.publicOrigin);

  app.get('/sitemap.xml', async (request, reply) =>
    reply.header('cache-control', CACHE_CONTROL).type('application/xml; charset=utf-8').send(sitemapXml(options.content(), origin(request))),
  );
  app.get('/robots.txt', async (request, reply) =>
    reply.header('cache-control', CACHE_CONTROL).type('text/plain; charset=utf-8').send(robotsTxt(origin(request))),
  );
  app.get('/feed.xml', async (request, reply) => {
    const content = options.content();
    const feed = atomFeed(content, origin(request), { ...options.site, updated: content.builtAt() });
    return reply.header('cache-control', CACHE_CONTROL).type('application/atom+xml; charset=utf-8').send(feed);
  });
  app.get('/api/search/index.json', async (_request, reply) =>
    reply.header('cache-control', CACHE_CONTROL).type('application/json; charset=utf-8').send(options.searchIndexJson()),
  );
};
