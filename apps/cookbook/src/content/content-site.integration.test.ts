/** The cookbook's real content: it builds, and it is as big and varied as the site promises. */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { siteRoot } from '../site-root.js';
import { buildContent } from './build-content.js';
import type { ContentFile } from './types.js';

let content: ContentFile;
beforeAll(async () => {
  content = await buildContent({ outDir: null });
}, 60_000);

describe('the cookbook content', () => {
  it('has at least 6 categories with at least 4 recipes each, 24 in all', () => {
    expect(content.categories.length).toBeGreaterThanOrEqual(6);
    expect(content.recipes.length).toBeGreaterThanOrEqual(24);
    for (const category of content.categories) expect(category.recipeCount, category.id).toBeGreaterThanOrEqual(4);
  });

  it('has code in several languages and a few featured recipes', () => {
    const languages = new Set(content.recipes.flatMap((r) => r.languages));
    expect(languages.size).toBeGreaterThanOrEqual(6);
    expect(content.recipes.filter((r) => r.featured).length).toBeGreaterThanOrEqual(4);
  });

  it('loads icons from at most two collections', () => {
    expect(content.iconCollections.length).toBeLessThanOrEqual(2);
  });

  it('ships 1600x900 covers under 150 KB', async () => {
    for (const { cover, id } of content.categories) {
      expect(cover, id).toMatchObject({ width: 1600, height: 900 });
      expect((await stat(join(siteRoot, 'public', cover.src))).size, id).toBeLessThan(150 * 1024);
    }
  });
});
