/** The absolute addresses the sitemap and the feed name: on PUBLIC_ORIGIN when set, else the request's. */
import type { FastifyRequest } from 'fastify';
import { requestOrigin } from '@tern/site/server';
import type { ContentRepository } from '../../content/types.js';

export function originFor(request: FastifyRequest, publicOrigin: string | undefined): string {
  return (publicOrigin ?? requestOrigin(request)).replace(/\/+$/, '');
}

/** Every page a crawler should know: home, about, each category, recipe and tag page. */
export function sitePaths(content: ContentRepository): string[] {
  return [
    '/',
    '/about',
    ...content.categories().map((c) => `/category/${c.id}`),
    ...content.allRecipes().map((r) => `/recipes/${r.id}`),
    ...content.tags().map((t) => `/tags/${encodeURIComponent(t.tag)}`),
  ];
}

/** Text for XML: the five characters XML gives a meaning, escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`);
}
