/** Home: the categories (icon, cover, title, count), a few featured recipes, and what the visitor saved. */
import { Icon } from '@tern/ui/icon';
import { Img } from '@tern/ui/img';
import type { PageHead } from '@tern/runtime/shared/head';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Link } from '@tern/ui/link';
import type { CategorySummary, Recipe, RecipeSummary } from '../../content/types.js';
import { RecipeList } from '../components/recipe-list.js';
import { pageViewerOf } from '../components/viewer.js';
import { servicesOf, viewerOf } from '../viewer-services.js';

const FEATURED_COUNT = 4;

/** A recipe without its body: the home page lists, it does not show. */
function summaryOf({ html: _html, headings: _headings, ...summary }: Recipe): RecipeSummary {
  return summary;
}

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  const viewer = await viewerOf(context, request);
  const saved = viewer ? viewer.saved.flatMap((id) => content.recipe(id) ?? []).map(summaryOf) : [];
  return { categories: content.categories(), featured: content.featured(FEATURED_COUNT), saved, viewer: pageViewerOf(viewer) };
}

export const head: PageHead = {
  description: 'Recipes for developers, by category, with code you can copy.',
};

function CategoryCard({ category, first }: { category: CategorySummary; first: boolean }) {
  const count = `${category.recipeCount} ${category.recipeCount === 1 ? 'recipe' : 'recipes'}`;
  return (
    <li className="group relative overflow-hidden rounded-lg border border-default bg-elevated focus-within:outline-2 focus-within:outline-primary">
      <Img
        src={category.cover.src}
        alt={category.cover.alt}
        width={category.cover.width}
        height={category.cover.height}
        sourceWidth={category.cover.width}
        sizes="100vw sm:50vw lg:340px"
        preload={first}
        className="aspect-video w-full object-cover"
      />
      <div className="p-4">
        <h3 className="flex items-center gap-2 text-lg font-semibold">
          <Icon name={category.icon} className="size-6 shrink-0" />
          {/* The whole card is the link's target area; the link itself keeps the title as its name. */}
          <Link to={`/category/${category.id}`} className="outline-none after:absolute after:inset-0">
            {category.title}
          </Link>
        </h3>
        <p className="mt-1 text-sm text-muted">{category.description}</p>
        <p className="mt-2 text-xs font-medium text-muted" data-recipe-count={category.recipeCount}>
          {count}
        </p>
      </div>
    </li>
  );
}

export default function HomePage() {
  const { categories, featured, saved, viewer } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-12">
      <section aria-labelledby="home-title">
        <h1 id="home-title" className="text-3xl font-bold">
          Recipes for developers
        </h1>
        <p className="mt-2 text-muted">Short, tested answers to everyday tasks, with code you can copy.</p>
      </section>

      {viewer && (
        <section aria-labelledby="saved-title" data-section="saved">
          <h2 id="saved-title" className="text-2xl font-bold">
            Your saved recipes
          </h2>
          {saved.length > 0 ? (
            <div className="mt-4">
              <RecipeList recipes={saved} label="Your saved recipes" />
            </div>
          ) : (
            <p className="mt-2 text-muted">Nothing saved yet: use the Save button on any recipe to keep it here.</p>
          )}
        </section>
      )}

      <section aria-labelledby="categories-title">
        <h2 id="categories-title" className="text-2xl font-bold">
          Categories
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((category, i) => (
            <CategoryCard key={category.id} category={category} first={i === 0} />
          ))}
        </ul>
      </section>

      <section aria-labelledby="featured-title">
        <h2 id="featured-title" className="text-2xl font-bold">
          Featured recipes
        </h2>
        <div className="mt-4">
          <RecipeList recipes={featured} label="Featured recipes" />
        </div>
      </section>
    </div>
  );
}
