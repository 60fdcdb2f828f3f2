/** A small in-memory content file for repository and API tests. */
import type { Category, ContentFile, Recipe } from '../content/types.js';

const cover = { src: '/images/x.jpg', width: 1600, height: 900, alt: '' };
const cat = (id: string, order: number): Category => ({ id, title: id, description: '', icon: 'lucide:x', cover, recipeCount: 0, order });
const rec = (id: string, categoryId: string, order: number, featured = false): Recipe => ({
  id,
  categoryId,
  order,
  featured,
  title: id,
  summary: '',
  tags: [],
  icon: 'lucide:x',
  cover: null,
  languages: [],
  href: `/category/${categoryId}#${id}`,
  html: `<p>${id}</p>`,
  headings: [],
});

export const sample: ContentFile = {
  version: 1,
  generatedAt: '2026-01-01T00:00:00.000Z',
  iconCollections: ['lucide'],
  codeCss: '.x{}',
  categories: [cat('sql', 2), cat('git', 1), cat('empty', 3)],
  recipes: [rec('b', 'git', 2), rec('a', 'git', 1), rec('q', 'sql', 1), rec('star', 'sql', 5, true)],
};
