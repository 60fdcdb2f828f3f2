/**
 * The shapes of the built content (dist/content/content.json). Browser-safe: plain,
 * JSON-serialisable objects that loaders hand to pages as data.
 */

/** An image under public/, with its intrinsic size so <Img> can reserve the space. */
export interface ContentImage {
  /** Public path, e.g. `/images/categories/git.jpg`. */
  src: string;
  width: number;
  height: number;
  alt: string;
}

/** A heading inside a recipe, with the id its anchor carries. */
export interface ContentHeading {
  id: string;
  text: string;
  level: number;
}

export interface CategorySummary {
  /** Lowercase slug; the `{id}` of `/category/{id}`. */
  id: string;
  title: string;
  description: string;
  /** Iconify name, `collection:name`. */
  icon: string;
  cover: ContentImage;
  recipeCount: number;
  /** Position on the home page (smaller first). */
  order: number;
}

export type Category = CategorySummary;

export interface RecipeSummary {
  /** Lowercase slug, unique across the site; also the anchor id on its category page. */
  id: string;
  categoryId: string;
  title: string;
  summary: string;
  tags: string[];
  /** Iconify name, `collection:name`. */
  icon: string;
  cover: ContentImage | null;
  /** Languages of its code blocks, in order of first appearance. */
  languages: string[];
  /** `/recipes/{id}`: the recipe's own page (its anchor on the category page stays too). */
  href: string;
  featured: boolean;
  /** Position inside its category (smaller first). */
  order: number;
}

export interface Recipe extends RecipeSummary {
  /** Rendered, sanitised HTML: raw HTML in Markdown is escaped, code is highlighted. */
  html: string;
  headings: ContentHeading[];
}

/** The file the build writes. */
export interface ContentFile {
  version: 1;
  generatedAt: string;
  /** The Iconify collections the content uses, so the icon service can preload them. */
  iconCollections: string[];
  /** The stylesheet the highlighted code needs (also written to dist/content/code.css). */
  codeCss: string;
  categories: Category[];
  recipes: Recipe[];
}

/** Read access to the built content; every method returns fresh plain objects. */
export interface ContentRepository {
  /** All categories, in home-page order. */
  categories(): CategorySummary[];
  category(id: string): Category | undefined;
  /** The recipes of a category in reading order; empty for an unknown category. */
  recipesOf(categoryId: string): Recipe[];
  /** Up to `n` recipes: those marked featured first, then the first recipe of each category. */
  featured(n: number): RecipeSummary[];
  recipe(id: string): Recipe | undefined;
  /** Every recipe, in category then reading order, without its body. */
  allRecipes(): RecipeSummary[];
  /** Every tag with how many recipes carry it, by name. */
  tags(): { tag: string; count: number }[];
  /** The recipes carrying `tag`, in category then reading order; empty for an unknown tag. */
  recipesTagged(tag: string): RecipeSummary[];
  /** The stylesheet highlighted code blocks need (light and dark token colours). */
  codeCss(): string;
  /** When the content was built (ISO 8601): the feed's `updated`. */
  builtAt(): string;
}
