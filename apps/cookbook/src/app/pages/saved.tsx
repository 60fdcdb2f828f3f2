/**
 * The visitor's saved recipes. For signed-in visitors only (the `signed-in` middleware sends
 * anyone else to /login and back). Rendered on the server for each request and never cached
 * (`cache: false` in site.config.ts): the list arrives with the HTML, with or without JavaScript.
 */
import type { PageHead } from '@tern/runtime/shared/head';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Link } from '@tern/ui/link';
import type { RecipeSummary } from '../../content/types.js';
import { RecipeList } from '../components/recipe-list.js';
import { pageViewerOf } from '../components/viewer.js';
import { servicesOf, viewerOf } from '../viewer-services.js';

export const middleware = 'signed-in';

export const head: PageHead = { title: 'Saved recipes', robots: false };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { content } = servicesOf(context);
  const viewer = await viewerOf(context, request);
  const saved: RecipeSummary[] = (viewer?.saved ?? []).flatMap((id) => {
    const recipe = content.recipe(id);
    if (!recipe) return [];
    const { html: _html, headings: _headings, ...summary } = recipe;
    return [summary];
  });
  // The viewer too, so the header shows who is signed in (and Sign out) here as on every page.
  return { saved, name: viewer?.user.name ?? '', viewer: pageViewerOf(viewer) };
}

export default function SavedPage() {
  const { saved, name } = useLoaderData<typeof loader>();
  return (
    <section data-page="saved" aria-labelledby="saved-page-title" className="space-y-4">
      <h1 id="saved-page-title" className="text-3xl font-bold">
        Saved recipes
      </h1>
      <p className="text-muted">{name ? `${name}, these are the recipes you kept.` : 'The recipes you kept.'}</p>
      {saved.length > 0 ? (
        <RecipeList recipes={saved} label="Saved recipes" />
      ) : (
        <p>
          Nothing saved yet: use the Save button on any recipe, or <Link to="/">browse the categories</Link>.
        </p>
      )}
    </section>
  );
}
