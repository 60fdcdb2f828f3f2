/** The recipes of one tag (`/tags/{tag}`), where every tag chip leads. An unknown tag is SPEC's 404. */
import type { HeadContext, PageHead } from '@tern/runtime/shared/head';
import type { PageValidate } from '@tern/runtime/shared/page-module';
import { pageNotFound } from '@tern/runtime/shared/validate';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { isSlug } from 'cookbook/content/slug';
import { RecipeList } from '../../components/recipe-list.js';
import { servicesOf } from '../../viewer-services.js';

export const validate: PageValidate = (route) => isSlug(route.params.tag);
/** The same for every visitor: signed-in visitors get it from the cache, their header filled in (personal.tsx). */
export const personal = 'parts';

export function loader({ context, params, request }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  const tag = params.tag ?? '';
  const recipes = content.recipesTagged(tag);
  if (recipes.length === 0) {
    throw pageNotFound(new URL(request.url).pathname);
  }
  return { tag, recipes };
}

type Data = ReturnType<typeof loader>;

export function head({ data }: HeadContext): PageHead {
  const { tag, recipes } = data as Data;
  return { title: `Recipes tagged ${tag}`, description: `${recipes.length} cookbook recipes about ${tag}: ${recipes.map((r) => r.title).join(', ')}.` };
}

export default function TagPage() {
  const { tag, recipes } = useLoaderData<typeof loader>();
  return (
    <section data-tag-page={tag} aria-labelledby="tag-title" className="space-y-4">
      <h1 id="tag-title" className="text-3xl font-bold">
        Recipes tagged <span className="tag-chip text-2xl">{tag}</span>
      </h1>
      <p className="text-muted">
        {recipes.length} {recipes.length === 1 ? 'recipe' : 'recipes'}
      </p>
      <RecipeList recipes={recipes} label={`Recipes tagged ${tag}`} />
    </section>
  );
}
