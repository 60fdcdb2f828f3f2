/**
 * Turns the Markdown sources into checked entries: front matter against the schemas, ids as
 * slugs and unique, categories that exist, icons that exist, covers that exist (with their size),
 * and bodies whose code languages and headings are allowed. Every problem names file and field.
 */
import { readCover } from './covers.js';
import { createIconChecker, type IconChecker } from './icons.js';
import type { IssueList } from './issues.js';
import { checkMarkdown } from './markdown.js';
import { categorySchema, parseFrontMatter, recipeSchema, type CategoryFrontMatter, type RecipeFrontMatter } from './schema.js';
import { isSlug } from './slug.js';
import type { SourceFile } from './sources.js';
import type { ContentImage } from './types.js';

export interface CheckedCategory {
  id: string;
  file: string;
  meta: CategoryFrontMatter;
  cover: ContentImage;
}

export interface CheckedRecipe {
  id: string;
  file: string;
  meta: RecipeFrontMatter;
  cover: ContentImage | null;
  body: string;
}

export interface CheckedContent {
  categories: CheckedCategory[];
  recipes: CheckedRecipe[];
}

interface Context {
  publicDir: string;
  issues: IssueList;
  icons: IconChecker;
}

export async function validateContent(
  sources: { categories: SourceFile[]; recipes: SourceFile[] },
  publicDir: string,
  issues: IssueList,
  icons: IconChecker = createIconChecker(),
): Promise<CheckedContent> {
  const ctx: Context = { publicDir, issues, icons };
  checkIds(sources.categories, issues);
  checkIds(sources.recipes, issues);
  if (sources.categories.length === 0) issues.add('content/categories', '(folder)', 'holds no category files');

  const categories: CheckedCategory[] = [];
  for (const source of sources.categories) {
    const { value, problems } = parseFrontMatter(categorySchema, source.data);
    for (const p of problems) issues.add(source.file, p.field, p.message);
    if (!value) continue;
    await checkIcon(ctx, source.file, value.icon);
    const cover = await checkCover(ctx, source.file, value.cover, value.coverAlt);
    if (cover) categories.push({ id: source.id, file: source.file, meta: value, cover });
  }

  const known = new Set(sources.categories.map((c) => c.id));
  const recipes: CheckedRecipe[] = [];
  for (const source of sources.recipes) {
    const { value, problems } = parseFrontMatter(recipeSchema, source.data);
    for (const p of problems) issues.add(source.file, p.field, p.message);
    for (const p of checkMarkdown(source.body)) issues.add(source.file, p.field, p.message);
    if (!value) continue;
    if (!known.has(value.category)) issues.add(source.file, 'category', `unknown category "${value.category}" (no content/categories/${value.category}.md)`);
    await checkIcon(ctx, source.file, value.icon);
    const cover = value.cover ? await checkCover(ctx, source.file, value.cover, value.coverAlt) : null;
    if (cover !== undefined) recipes.push({ id: source.id, file: source.file, meta: value, cover, body: source.body });
  }
  return { categories, recipes };
}

function checkIds(sources: SourceFile[], issues: IssueList): void {
  const seen = new Map<string, string>();
  for (const source of sources) {
    if (!isSlug(source.id)) issues.add(source.file, 'id (file name)', `"${source.id}" is not a lowercase slug (a-z, 0-9, single hyphens)`);
    const first = seen.get(source.id);
    if (first) issues.add(source.file, 'id (file name)', `duplicate id "${source.id}", also used by ${first}`);
    else seen.set(source.id, source.file);
  }
}

async function checkIcon(ctx: Context, file: string, icon: string): Promise<void> {
  const problem = await ctx.icons.problemWith(icon);
  if (problem) ctx.issues.add(file, 'icon', problem);
}

async function checkCover(ctx: Context, file: string, src: string, alt: string): Promise<ContentImage | undefined> {
  const result = await readCover(ctx.publicDir, src);
  if (result.problem !== undefined) {
    ctx.issues.add(file, 'cover', result.problem);
    return undefined;
  }
  return { src, width: result.size.width, height: result.size.height, alt };
}
