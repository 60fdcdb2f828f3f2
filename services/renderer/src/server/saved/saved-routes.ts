/**
 * GET /api/saved, POST and DELETE /api/saved/{recipeId}: the signed-in visitor's saved recipes.
 * Anonymous visitors get 401; a recipe the content does not have is a 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createError } from '../../../../../lib/errors.js';
import { toSummary } from '../../content/repository.js';
import type { RecipeSummary } from '../../content/types.js';
import type { Accounts } from '../accounts.js';
import { signedInFrom } from '../auth/current-user.js';

export interface SavedAnswer {
  recipeId: string;
  saved: boolean;
}

export async function savedRoutes(app: FastifyInstance, { accounts }: { accounts: Accounts }): Promise<void> {
  const { sessions, users, repository } = accounts;

  async function userOf(request: FastifyRequest) {
    const current = await signedInFrom(request.headers.cookie, sessions, users);
    if (!current) throw createError({ statusCode: 401, message: 'Sign in to save recipes' });
    return current.user;
  }

  function recipeIdOf(request: FastifyRequest): string {
    const { recipeId } = request.params as { recipeId: string };
    if (!repository.recipe(recipeId)) throw createError({ statusCode: 404, message: `No recipe with the id ${JSON.stringify(recipeId)}` });
    return recipeId;
  }

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/api/saved', async (request): Promise<{ recipes: RecipeSummary[] }> => {
    const user = await userOf(request);
    const ids = await users.saved(user.id);
    // A recipe removed from the content since it was saved is left out, not an error.
    return { recipes: ids.flatMap((id) => repository.recipe(id) ?? []).map(toSummary) };
  });

  app.post('/api/saved/:recipeId', async (request, reply): Promise<SavedAnswer> => {
    const user = await userOf(request);
    const recipeId = recipeIdOf(request);
    const created = await users.save(user.id, recipeId);
    reply.code(created ? 201 : 200);
    return { recipeId, saved: true };
  });

  app.delete('/api/saved/:recipeId', async (request): Promise<SavedAnswer> => {
    const user = await userOf(request);
    const recipeId = recipeIdOf(request);
    await users.unsave(user.id, recipeId);
    return { recipeId, saved: false };
  });
}
