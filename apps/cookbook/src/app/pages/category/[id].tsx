/**
 * A category and its recipes: the id must be a lowercase slug and a known one (DESIGN). Each
 * recipe is an anchor (`#{recipe}`, so old links keep working) whose title leads to its own page,
 * its code blocks get copy buttons, and it can be saved. The page is long: the recipes after the
 * first hydrate when they come near the viewport or are used (HydrateWhenVisible), not all with
 * the page (docs/decisions/page-hydration.md).
 */
import { CodeBlockCopyButtons } from '@tern/ui/code-block-copy-buttons';
import { DomHtmlBlock } from '@tern/ui/dom-html-block';
import { HydrateWhenVisible } from '@tern/ui/hydrate-when-visible';
import { Icon } from '@tern/ui/icon';
import type { HeadContext, PageHead } from '@tern/runtime/shared/head';
import { domHtml, type DomHtml } from '@tern/runtime/shared/dom-html';
import type { PageValidate } from '@tern/runtime/shared/page-module';
import { memo, useRef } from 'react';
import { useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router';
import { Link } from '@tern/ui/link';
import { createError } from '@tern/shared/errors/errors';
import { COOKBOOK_ERRORS } from 'cookbook/error-codes';
import { isSlug } from 'cookbook/content/slug';
import type { Recipe } from 'cookbook/content/types';
import { TagChips } from '../../components/tag-chips.js';
import { SavePart } from '../../components/save-part.js';
import { servicesOf } from '../../viewer-services.js';

export const validate: PageValidate = (route) => isSlug(route.params.id);
/** The same for every visitor but the save buttons: signed-in visitors get it from the cache (personal.tsx). */
export const personal = 'parts';

export function loader({ context, params, request }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  const category = content.category(params.id ?? '');
  if (!category) {
    const path = new URL(request.url).pathname;
    throw createError({ ...COOKBOOK_ERRORS.COOKBOOK_CATEGORY_PAGE_NOT_FOUND(path), data: { path } });
  }
  // Each body travels once, in the document (runtime/shared/dom-html.ts).
  const recipes = content.recipesOf(category.id).map((recipe) => ({ ...recipe, html: domHtml(`recipe:${recipe.id}`, recipe.html) }));
  return { category, recipes };
}

type Data = ReturnType<typeof loader>;

export function head({ data }: HeadContext): PageHead {
  const { category } = data as Data;
  return { title: category.title, description: category.description };
}

interface RecipeSectionProps {
  recipe: Omit<Recipe, 'html'> & { html: DomHtml };
}

function RecipeSection({ recipe }: RecipeSectionProps) {
  const body = useRef<HTMLDivElement>(null);
  return (
    <section
      id={recipe.id}
      aria-labelledby={`${recipe.id}-title`}
      className="scroll-mt-20 border-t border-default pt-8"
      data-recipe={recipe.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${recipe.id}-title`} className="flex items-center gap-2 text-2xl font-semibold">
            <Icon name={recipe.icon} className="size-6 shrink-0" />
            <Link to={`/recipes/${recipe.id}`} className="hover:underline focus-visible:outline-2 focus-visible:outline-primary">
              {recipe.title}
            </Link>
          </h2>
          <p className="mt-1 text-sm text-muted">{recipe.summary}</p>
        </div>
        <SavePart recipeId={recipe.id} recipeTitle={recipe.title} />
      </div>
      <TagChips tags={recipe.tags} />
      <DomHtmlBlock ref={body} className="prose mt-4 max-w-none" value={recipe.html} />
      <CodeBlockCopyButtons containerRef={body} contentKey={recipe.id} />
    </section>
  );
}

/**
 * A recipe below the first, hydrated on its own. Memoised: a re-render of the page with the same
 * data must not update a part still waiting to hydrate (React would drop its server HTML).
 */
const LaterRecipeSection = memo(function LaterRecipeSection(props: RecipeSectionProps) {
  return (
    <HydrateWhenVisible elementId={props.recipe.id}>
      <RecipeSection {...props} />
    </HydrateWhenVisible>
  );
});

export default function CategoryPage() {
  const { category, recipes } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  return (
    <article className="space-y-10" data-category={category.id} key={pathname}>
      <header className="flex items-start gap-4">
        <Icon name={category.icon} className="size-12 shrink-0" />
        <div>
          <h1 className="text-3xl font-bold">{category.title}</h1>
          <p className="mt-2 text-muted">{category.description}</p>
          <p className="mt-1 text-sm text-muted">
            {recipes.length} {recipes.length === 1 ? 'recipe' : 'recipes'}
          </p>
        </div>
      </header>
      <nav aria-label={`Recipes in ${category.title}`}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {recipes.map((recipe) => (
            <li key={recipe.id}>
              <a href={`#${recipe.id}`} className="ui-button-soft">
                {recipe.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {recipes.map((recipe, i) => {
        const Section = i === 0 ? RecipeSection : LaterRecipeSection;
        return <Section key={recipe.id} recipe={recipe} />;
      })}
    </article>
  );
}
