/** A category and its recipes; the id must be a lowercase slug, and a known one (DESIGN). */
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { createError } from '../../../../../../lib/errors.js';
import { isSlug } from '../../../content/slug.js';
import type { HeadContext, PageHead } from '../../../runtime/head.js';
import type { PageValidate } from '../../../runtime/page-module.js';
import { servicesOf } from '../../../runtime/services.js';

export const validate: PageValidate = (route) => isSlug(route.params.id);

export async function loader({ context, params, request }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  const category = content.category(params.id ?? '');
  if (!category) {
    const path = new URL(request.url).pathname;
    throw createError({ statusCode: 404, statusMessage: `Page Not Found: ${path}`, data: { path } });
  }
  return { category, recipes: content.recipesOf(category.id) };
}

type Data = Awaited<ReturnType<typeof loader>>;

export function head({ data }: HeadContext): PageHead {
  const { category } = data as Data;
  return { title: category.title, description: category.description };
}

export default function CategoryPage() {
  const { category, recipes } = useLoaderData<typeof loader>();
  return (
    <article>
      <h1 className="text-3xl font-bold">{category.title}</h1>
      <p className="mt-2 text-muted">{category.description}</p>
      {recipes.map((recipe) => (
        <section key={recipe.id} id={recipe.id} aria-labelledby={`${recipe.id}-title`} className="mt-10 scroll-mt-20">
          <h2 id={`${recipe.id}-title`} className="text-2xl font-semibold">
            {recipe.title}
          </h2>
          <p className="mt-1 text-sm text-muted">{recipe.summary}</p>
          <div className="prose mt-4 max-w-none" dangerouslySetInnerHTML={{ __html: recipe.html }} />
        </section>
      ))}
    </article>
  );
}
