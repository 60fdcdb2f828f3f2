/** `/feed.xml`: an Atom feed (RFC 4287) of every recipe, its summary as the entry's. */
import type { ContentRepository } from '../../content/types.js';
import { escapeXml } from './site-urls.js';

export interface FeedSite {
  name: string;
  description: string;
  /** When the content was built: the feed's and every entry's `updated` (recipes carry no date of their own). */
  updated: string;
}

export function atomFeed(content: ContentRepository, origin: string, site: FeedSite): string {
  const categories = new Map(content.categories().map((c) => [c.id, c.title]));
  const entries = content.allRecipes().map((recipe) => {
    const url = escapeXml(`${origin}/recipes/${recipe.id}`);
    const category = categories.get(recipe.categoryId) ?? recipe.categoryId;
    return [
      '  <entry>',
      `    <title>${escapeXml(recipe.title)}</title>`,
      `    <id>${url}</id>`,
      `    <link rel="alternate" type="text/html" href="${url}"/>`,
      `    <updated>${site.updated}</updated>`,
      `    <summary>${escapeXml(recipe.summary)}</summary>`,
      `    <category term="${escapeXml(recipe.categoryId)}" label="${escapeXml(category)}"/>`,
      ...recipe.tags.map((tag) => `    <category term="${escapeXml(tag)}"/>`),
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${escapeXml(site.name)}</title>`,
    `  <subtitle>${escapeXml(site.description)}</subtitle>`,
    `  <id>${escapeXml(`${origin}/`)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${origin}/feed.xml`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${origin}/`)}"/>`,
    `  <updated>${site.updated}</updated>`,
    `  <author><name>${escapeXml(site.name)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
