// The category page, rendered per request from the same built content the renderer serves.
import { readFile } from 'node:fs/promises';
import { notFound } from 'next/navigation';

export const dynamic = 'force-dynamic';

let content;
async function loadContent() {
  content ??= JSON.parse(await readFile(process.env.CONTENT_FILE, 'utf8'));
  return content;
}

export async function generateMetadata({ params }) {
  const { id } = await params;
  const { categories } = await loadContent();
  const category = categories.find((c) => c.id === id);
  return category ? { title: `${category.title} | Cookbook`, description: category.description } : {};
}

export default async function CategoryPage({ params }) {
  const { id } = await params;
  const { categories, recipes } = await loadContent();
  const category = categories.find((c) => c.id === id);
  if (!category) notFound();
  const list = recipes.filter((r) => r.categoryId === id).sort((a, b) => a.order - b.order);
  return (
    <article>
      <h1 className="text-3xl font-bold">{category.title}</h1>
      <p className="mt-2 text-muted">{category.description}</p>
      {list.map((recipe) => (
        <section key={recipe.id} id={recipe.id} aria-labelledby={`${recipe.id}-title`} className="mt-10 scroll-mt-20">
          <h2 id={`${recipe.id}-title`} className="text-2xl font-semibold">
            {recipe.title}
          </h2>
          <p className="mt-1 text-sm text-muted">{recipe.summary}</p>
          <div className="prose mt-4 max-w-none" dangerouslySetInnerHTML={{ __html: recipe.html }} />
        </section>
      ))}
    </article>
  );
}
