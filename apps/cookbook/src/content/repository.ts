/**
 * The server-side view of the built content: reads dist/content/content.json once and answers
 * from memory. Node-only (reads a file); pages get the plain objects it returns.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDir } from '@tern/shared/config/paths';
import type { Category, ContentFile, ContentRepository, Recipe, RecipeSummary } from './types.js';

export const defaultContentFile = join(buildDir, 'content', 'content.json');

/** Reads the built content; fails with a message naming the file when it is missing or malformed. */
export async function loadContentRepository(file: string = defaultContentFile): Promise<ContentRepository> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = code === 'ENOENT' ? ' (run `npm run build:content` first)' : '';
    throw new Error(`cannot read content file ${file}: ${code ?? String(error)}${hint}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`content file ${file} is not valid JSON`, { cause: error });
  }
  return createContentRepository(assertContentFile(parsed, file));
}

function assertContentFile(value: unknown, file: string): ContentFile {
  const v = value as Partial<ContentFile> | null;
  if (!v || typeof v !== 'object' || v.version !== 1 || !Array.isArray(v.categories) || !Array.isArray(v.recipes)) {
    throw new Error(`content file ${file} is not a version 1 content file (rebuild it with \`npm run build:content\`)`);
  }
  return v as ContentFile;
}

/** A repository over content already in memory (the build output, or test data). */
export function createContentRepository(content: ContentFile): ContentRepository {
  const categories = [...content.categories].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const byCategory = new Map<string, Recipe[]>(categories.map((c) => [c.id, []]));
  for (const recipe of content.recipes) byCategory.get(recipe.categoryId)?.push(recipe);
  for (const list of byCategory.values()) list.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const recipes = new Map(content.recipes.map((r) => [r.id, r]));
  const categoryIndex = new Map(categories.map((c) => [c.id, c]));
  const ordered = categories.flatMap((c) => byCategory.get(c.id) ?? []);
  const byTag = new Map<string, Recipe[]>();
  for (const recipe of ordered) for (const tag of recipe.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), recipe]);
  const tags = [...byTag.keys()].sort().map((tag) => ({ tag, count: byTag.get(tag)!.length }));

  return {
    categories: () => categories.map(copyCategory),
    category: (id) => {
      const found = categoryIndex.get(id);
      return found && copyCategory(found);
    },
    recipesOf: (categoryId) => (byCategory.get(categoryId) ?? []).map(copyJson),
    featured: (n) => pickFeatured(categories, byCategory, n).map(toSummary),
    recipe: (id) => {
      const found = recipes.get(id);
      return found && copyJson(found);
    },
    allRecipes: () => ordered.map(toSummary),
    tags: () => tags.map((t) => ({ ...t })),
    recipesTagged: (tag) => (byTag.get(tag) ?? []).map(toSummary),
    codeCss: () => content.codeCss ?? '',
    builtAt: () => content.generatedAt,
  };
}

/**
 * A deep copy of plain JSON data. Strings are immutable, so they are shared: structuredClone
 * would copy every recipe's HTML on every request (measured: ~5-8% of a category page's CPU).
 */
function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}

function copyCategory(category: Category): Category {
  return { ...category, cover: { ...category.cover } };
}

/** Featured recipes in category order, then each category's first recipe until `n` are found. */
function pickFeatured(categories: Category[], byCategory: Map<string, Recipe[]>, n: number): Recipe[] {
  const limit = Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0;
  const ordered = categories.flatMap((c) => byCategory.get(c.id) ?? []);
  const picked = ordered.filter((r) => r.featured);
  for (const c of categories) {
    const first = byCategory.get(c.id)?.[0];
    if (first && !picked.includes(first)) picked.push(first);
  }
  return picked.slice(0, limit);
}

export function toSummary(recipe: Recipe): RecipeSummary {
  const { html: _html, headings: _headings, ...summary } = recipe;
  return structuredClone(summary);
}
