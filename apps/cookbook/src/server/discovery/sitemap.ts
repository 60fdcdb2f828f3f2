/** `/sitemap.xml` (sitemaps.org 0.9): every page of the site, absolute. */
import type { ContentRepository } from '../../content/types.js';
import { escapeXml, sitePaths } from './site-urls.js';

export function sitemapXml(content: ContentRepository, origin: string): string {
  const urls = sitePaths(content).map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>\n`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('')}</urlset>\n`;
}

/** `/robots.txt`: everything may be crawled but the personal pages, and where the sitemap is. */
export function robotsTxt(origin: string): string {
  return `User-agent: *\nDisallow: /login\nDisallow: /saved\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`;
}
