/** About: what the cookbook is and how it is made. The same for everyone, so it is prerendered at build time. */
import type { PageHead } from '@tern/runtime/shared/head';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Link } from '@tern/ui/link';
import { servicesOf } from '../viewer-services.js';

/** The same for every visitor: signed-in visitors get it from the cache, their header filled in (personal.tsx). */
export const personal = 'parts';

export async function loader({ context }: LoaderFunctionArgs) {
  const categories = servicesOf(context).content.categories();
  return {
    categories: categories.map(({ id, title }) => ({ id, title })),
    recipes: categories.reduce((sum, category) => sum + category.recipeCount, 0),
  };
}

export const head: PageHead = {
  title: 'About',
  description: 'What this cookbook is, who it is for, and how it is built.',
};

export default function AboutPage() {
  const { categories, recipes } = useLoaderData<typeof loader>();
  return (
    <article data-page="about" className="prose max-w-2xl">
      <h1>About this cookbook</h1>
      <p>
        Short, tested recipes for the tools developers reach for every day: {recipes} recipes in {categories.length} categories, each with
        code you can copy.
      </p>
      <h2>Categories</h2>
      <ul>
        {categories.map((category) => (
          <li key={category.id}>
            <Link to={`/category/${category.id}`}>{category.title}</Link>
          </li>
        ))}
      </ul>
      <h2>How it is built</h2>
      <p>
        Pages are rendered on the server with React and streamed; this one is rendered once, at build time, and served as a file. The home
        and category pages are answered from a shared cache and refreshed behind the answer. Signed-in visitors always get their own render.
      </p>
      <p>
        <Link to="/">Back to the recipes</Link>
      </p>
    </article>
  );
}
