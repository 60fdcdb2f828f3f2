/**
 * `npm run build:content`: validates content/, renders every recipe to HTML with server-side
 * highlighting, and writes dist/content/content.json and dist/content/code.css. Any problem stops
 * the build with a list naming each file and field.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDir, projectRoot } from '@tern/shared/config/paths';
import { siteRoot } from '../site-root.js';
import { createCodeHighlighter } from './highlight.js';
import type { IconChecker } from './icons.js';
import { IssueList } from './issues.js';
import { createMarkdownRenderer, languagesOf } from './markdown.js';
import { buildSearchIndex } from './search-index.js';
import { readSources } from './sources.js';
import type { Category, ContentFile, Recipe } from './types.js';
import { validateContent, type CheckedContent } from './validate-content.js';

export interface BuildContentOptions {
  /** Paths in messages are relative to this. */
  rootDir?: string;
  contentDir?: string;
  publicDir?: string;
  /** Where content.json and code.css go; nothing is written when null. */
  outDir?: string | null;
  /** The icon names' checker; unset, a new one (tests share one: it holds parsed collections of megabytes). */
  icons?: IconChecker;
}

export async function buildContent(options: BuildContentOptions = {}): Promise<ContentFile> {
  const rootDir = options.rootDir ?? projectRoot;
  const contentDir = options.contentDir ?? join(options.rootDir ?? siteRoot, 'content');
  const publicDir = options.publicDir ?? join(options.rootDir ?? siteRoot, 'public');
  const issues = new IssueList();
  const sources = {
    categories: await readSources(join(contentDir, 'categories'), rootDir, issues),
    recipes: await readSources(join(contentDir, 'recipes'), rootDir, issues),
  };
  const checked = await validateContent(sources, publicDir, issues, options.icons);
  issues.throwIfAny();

  const content = await renderContent(checked, issues);
  issues.throwIfAny();
  const outDir = options.outDir === undefined ? join(buildDir, 'content') : options.outDir;
  if (outDir) {
    await writeAtomically(join(outDir, 'content.json'), JSON.stringify(content));
    await writeAtomically(join(outDir, 'code.css'), content.codeCss);
    // Beside the content, so the index is always of the recipes served (a data file of the site: in the build id).
    await writeAtomically(join(outDir, 'search-index.json'), JSON.stringify(buildSearchIndex(content.recipes, content.categories)));
  }
  return content;
}

async function renderContent(checked: CheckedContent, issues: IssueList): Promise<ContentFile> {
  const highlighter = await createCodeHighlighter(checked.recipes.flatMap((r) => languagesOf(r.body)));
  const render = createMarkdownRenderer(highlighter);
  const recipes: Recipe[] = checked.recipes.map(({ id, meta, cover, body }) => {
    const { html, headings, languages } = render(body, id);
    return {
      id,
      categoryId: meta.category,
      title: meta.title,
      summary: meta.summary,
      tags: meta.tags,
      icon: meta.icon,
      cover,
      languages,
      href: `/recipes/${id}`,
      featured: meta.featured,
      order: meta.order,
      html,
      headings,
    };
  });
  checkAnchors(checked, recipes, issues);
  const categories: Category[] = checked.categories.map(({ id, meta, cover }) => ({
    id,
    title: meta.title,
    description: meta.description,
    icon: meta.icon,
    cover,
    recipeCount: recipes.filter((r) => r.categoryId === id).length,
    order: meta.order,
  }));
  const icons = [...categories, ...recipes].map((e) => e.icon.split(':')[0]!);
  return {
    version: 1,
    generatedAt: new Date().toISOString(),
    iconCollections: [...new Set(icons)].sort(),
    codeCss: highlighter.stylesheet(),
    categories,
    recipes,
  };
}

/** One category page holds all its recipes: recipe ids and heading ids must not collide there. */
function checkAnchors(checked: CheckedContent, recipes: Recipe[], issues: IssueList): void {
  const owners = new Map<string, string>();
  recipes.forEach((recipe, i) => {
    const file = checked.recipes[i]!.file;
    for (const id of [recipe.id, ...recipe.headings.map((h) => h.id)]) {
      const key = `${recipe.categoryId}#${id}`;
      const owner = owners.get(key);
      if (owner && owner !== file) issues.add(file, 'body', `anchor "#${id}" is also used by ${owner} on /category/${recipe.categoryId}`);
      owners.set(key, file);
    }
  });
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  buildContent().then(
    (content) => {
      const size = `${content.categories.length} categories, ${content.recipes.length} recipes`;
      process.stdout.write(`content: ${size} built in ${Date.now() - started} ms\n`);
    },
    (error: unknown) => {
      process.stderr.write(`content: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
