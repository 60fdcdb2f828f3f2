/** A short list of recipes (title, summary, icon), linking to each recipe's anchor on its category page. */
import { Icon } from '@tern/ui/icon';
import { Link } from '@tern/ui/link';
import type { RecipeSummary } from '../../content/types.js';

export function RecipeList({ recipes, label }: { recipes: RecipeSummary[]; label: string }) {
  return (
    <ul aria-label={label} className="grid gap-3 sm:grid-cols-2">
      {recipes.map((recipe) => (
        <li key={recipe.id} className="rounded-lg border border-default bg-elevated p-4">
          <Link
            to={recipe.href}
            className="flex items-center gap-2 font-semibold text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-primary"
          >
            <Icon name={recipe.icon} className="size-5 shrink-0" />
            {recipe.title}
          </Link>
          <p className="mt-1 text-sm text-muted">{recipe.summary}</p>
        </li>
      ))}
    </ul>
  );
}
