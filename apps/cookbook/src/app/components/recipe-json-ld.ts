/**
 * A recipe as schema.org's TechArticle (a how-to for developers), for search engines' rich results;
 * the platform adds its absolute `url` and `image`.
 */
import type { RecipeSummary } from '../../content/types.js';

export function recipeJsonLd(recipe: RecipeSummary, categoryTitle: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'TechArticle',
    headline: recipe.title,
    description: recipe.summary,
    articleSection: categoryTitle,
    keywords: recipe.tags.join(', '),
  };
}
