/**
 * The product API for categories. Routes carry their full path (`/api/categories`,
 * `/api/categories/:id`): register the plugin WITHOUT a prefix.
 *   GET /api/categories      -> { categories: CategorySummary[] }
 *   GET /api/categories/:id  -> { category: Category, recipes: RecipeSummary[] }
 * Errors use the one shape of packages/shared/src/errors/errors.ts: 400 for a malformed id, 404 for an unknown one.
 */
import type { FastifyPluginAsync } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { COOKBOOK_SERVER_ERRORS } from '../error-codes.js';
import { toSummary } from '../../content/repository.js';
import { isSlug } from '../../content/slug.js';
import type { ContentRepository } from '../../content/types.js';

export interface CategoriesApiOptions {
  repository: ContentRepository;
}

const CACHE_CONTROL = 'public, max-age=60';

export const categoriesApi: FastifyPluginAsync<CategoriesApiOptions> = async function categoriesApi(app, options) {
  const { repository } = options;

  app.get('/api/categories', async (_request, reply) => {
    reply.header('cache-control', CACHE_CONTROL);
    return { categories: repository.categories() };
  });

  app.get<{ Params: { id: string } }>('/api/categories/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isSlug(id)) {
      throw createError({ ...COOKBOOK_SERVER_ERRORS.COOKBOOK_CATEGORY_ID_INVALID(), data: { field: 'id' } });
    }
    const category = repository.category(id);
    if (!category) throw createError({ ...COOKBOOK_SERVER_ERRORS.COOKBOOK_CATEGORY_NOT_FOUND(id), data: { id } });
    reply.header('cache-control', CACHE_CONTROL);
    return { category, recipes: repository.recipesOf(id).map(toSummary) };
  });
};
