/**
 * GET /api/saved, POST and DELETE /api/saved/{recipeId}: the signed-in visitor's saved recipes.
 * Anonymous visitors get 401; a recipe the content does not have is a 404.
 *
 * The save button is also a plain form (before hydration, or without JavaScript). HTML forms only
 * POST, so the form's `saved` field says which state it asks for, and the answer is the page to go
 * back to (303); a visitor whose session has ended goes to the login page and back.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { COOKBOOK_SERVER_ERRORS } from '../error-codes.js';
import { toSummary } from '../../content/repository.js';
import type { RecipeSummary } from '../../content/types.js';
import type { Accounts } from '../accounts-type.js';
import { loginHref } from '../../app/components/safe-redirect.js';
import { signedInFrom } from '../auth/current-user.js';
import { formFields, isFormPost, redirectField, seeOther } from '../auth/plain-forms.js';

export interface SavedAnswer {
  recipeId: string;
  saved: boolean;
}

export async function savedRoutes(app: FastifyInstance, { accounts }: { accounts: Accounts }): Promise<void> {
  const { sessions, users, repository } = accounts;

  async function userOf(request: FastifyRequest) {
    const current = await signedInFrom(request.headers.cookie, sessions, users);
    if (!current) throw createError(COOKBOOK_SERVER_ERRORS.COOKBOOK_SIGN_IN_REQUIRED());
    return current.user;
  }

  function recipeIdOf(request: FastifyRequest): string {
    const { recipeId } = request.params as { recipeId: string };
    if (!repository.recipe(recipeId)) throw createError(COOKBOOK_SERVER_ERRORS.COOKBOOK_RECIPE_NOT_FOUND(recipeId));
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

  app.post('/api/saved/:recipeId', async (request, reply) => {
    if (isFormPost(request)) return answerForm(request, reply);
    const user = await userOf(request);
    const recipeId = recipeIdOf(request);
    const created = await users.save(user.id, recipeId);
    reply.code(created ? 201 : 200);
    return { recipeId, saved: true } satisfies SavedAnswer;
  });

  async function answerForm(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const back = redirectField(request);
    const recipeId = recipeIdOf(request);
    const current = await signedInFrom(request.headers.cookie, sessions, users);
    if (!current) return seeOther(reply, loginHref(back));
    const { saved } = formFields(request);
    if (saved !== 'true' && saved !== 'false') throw createError(COOKBOOK_SERVER_ERRORS.COOKBOOK_SAVED_FORM_INVALID());
    await (saved === 'true' ? users.save(current.user.id, recipeId) : users.unsave(current.user.id, recipeId));
    return seeOther(reply, back);
  }

  app.delete('/api/saved/:recipeId', async (request): Promise<SavedAnswer> => {
    const user = await userOf(request);
    const recipeId = recipeIdOf(request);
    await users.unsave(user.id, recipeId);
    return { recipeId, saved: false };
  });
}
