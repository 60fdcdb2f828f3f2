/**
 * One recipe on a page of its own (`/recipes/{slug}`, the slug being its file name): shareable
 * with its own title, description, Open Graph and JSON-LD. An unknown slug is SPEC's 404.
 */
import { CodeBlockCopyButtons } from '@tern/ui/code-block-copy-buttons';
import { DomHtmlBlock } from '@tern/ui/dom-html-block';
import { Icon } from '@tern/ui/icon';
import { domHtml } from '@tern/runtime/shared/dom-html';
import type { HeadContext, PageHead } from '@tern/runtime/shared/head';
import type { PageValidate } from '@tern/runtime/shared/page-module';
import { pageNotFound } from '@tern/runtime/shared/validate';
import { useRef } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Link } from '@tern/ui/link';
import { isSlug } from 'cookbook/content/slug';
import { TagChips } from '../../components/tag-chips.js';
import { SavePart } from '../../components/save-part.js';
import { servicesOf } from '../../viewer-services.js';
import { recipeJsonLd } from '../../components/recipe-json-ld.js';

export const validate: PageValidate = (route) => isSlug(route.params.slug);
/** The same for every visitor but the save button: signed-in visitors get it from the cache (personal.tsx). */
export const personal = 'parts';

/** The body's headings start at h3 (under the category page's h2 titles); here the title is the h1. */
function raiseHeadings(html: string): string {
  return html.replace(/<(\/?)h([3-6])\b/g, (_whole, slash: string, level: string) => `<${slash}h${Number(level) - 1}`);
}

export function loader({ context, params, request }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  const recipe = content.recipe(params.slug ?? '');
  const category = recipe && content.category(recipe.categoryId);
  if (!recipe || !category) {
    throw pageNotFound(new URL(request.url).pathname);
  }
  return {
    // The body travels once, in the document (runtime/shared/dom-html.ts).
    recipe: { ...recipe, html: domHtml(`recipe:${recipe.id}`, raiseHeadings(recipe.html)) },
    category: { id: category.id, title: category.title, cover: category.cover.src },
  };
}

type Data = ReturnType<typeof loader>;

export function head({ data }: HeadContext): PageHead {
  const { recipe, category } = data as Data;
  return {
    title: recipe.title,
    description: recipe.summary,
    type: 'article',
    image: recipe.cover?.src ?? category.cover,
    jsonLd: recipeJsonLd(recipe, category.title),
  };
}

export default function RecipePage() {
  const { recipe, category } = useLoaderData<typeof loader>();
  const body = useRef<HTMLDivElement>(null);
  return (
    <article data-recipe-page={recipe.id} aria-labelledby="recipe-title" className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <Link to={`/category/${category.id}`} className="hover:underline">
          {category.title}
        </Link>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="recipe-title" className="flex items-center gap-2 text-3xl font-bold">
            <Icon name={recipe.icon} className="size-8 shrink-0" />
            {recipe.title}
          </h1>
          <p className="mt-2 text-muted">{recipe.summary}</p>
          <TagChips tags={recipe.tags} />
        </div>
        <SavePart recipeId={recipe.id} recipeTitle={recipe.title} />
      </header>
      <DomHtmlBlock ref={body} className="prose max-w-none" value={recipe.html} />
      <CodeBlockCopyButtons containerRef={body} contentKey={recipe.id} />
    </article>
  );
}
