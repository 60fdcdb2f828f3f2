/** Home: the categories and a few featured recipes. */
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Icon } from '../components/ui/icon.js';
import type { PageHead } from '../../runtime/head.js';
import { servicesOf } from '../../runtime/services.js';

export async function loader({ context }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  return { categories: content.categories(), featured: content.featured(4) };
}

export const head: PageHead = {
  description: 'Recipes for developers, by category, with code you can copy.',
};

export default function HomePage() {
  const { categories, featured } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-10">
      <section aria-labelledby="categories-title">
        <h1 id="categories-title" className="text-3xl font-bold">
          Categories
        </h1>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((category) => (
            <li key={category.id} className="rounded-lg border border-default p-4">
              <Link to={`/category/${category.id}`} className="flex items-center gap-3 font-semibold">
                <Icon name={category.icon} className="size-6" />
                {category.title}
              </Link>
              <p className="mt-2 text-sm text-muted">{category.description}</p>
              <p className="mt-1 text-xs text-muted">
                {category.recipeCount} {category.recipeCount === 1 ? 'recipe' : 'recipes'}
              </p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="featured-title">
        <h2 id="featured-title" className="text-2xl font-bold">
          Featured recipes
        </h2>
        <ul className="mt-4 space-y-2">
          {featured.map((recipe) => (
            <li key={recipe.id}>
              <Link to={recipe.href} className="text-primary underline">
                {recipe.title}
              </Link>
              <span className="text-sm text-muted"> · {recipe.summary}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
