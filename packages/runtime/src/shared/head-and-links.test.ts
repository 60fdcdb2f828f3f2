import { describe, expect, it } from 'vitest';
import { renderHeadTags, resolveHead } from './head.js';
import { linksFor, type ViteManifest } from '@tern/renderer/manifest-links';

const manifest: ViteManifest = {
  'src/entry-client.tsx': {
    file: 'entry.js',
    isEntry: true,
    imports: ['_shared.js'],
    css: ['entry.css'],
    dynamicImports: ['src/app/pages/a.tsx', 'src/app/pages/b.tsx'],
  },
  '_shared.js': { file: 'shared.js' },
  '_only-a.js': { file: 'only-a.js', imports: ['_shared.js'], css: ['only-a.css'] },
  'src/app/pages/a.tsx': { file: 'a.js', isDynamicEntry: true, imports: ['_only-a.js', '_shared.js'], css: ['a.css'] },
  'src/app/pages/b.tsx': { file: 'b.js', isDynamicEntry: true, imports: ['_shared.js'] },
};

describe('per-route links from the Vite manifest', () => {
  it('preload the entry and the matched page with all it imports, each once', () => {
    const links = linksFor(manifest, 'src/entry-client.tsx', ['src/app/pages/a.tsx'], '/_nuxt/');
    expect(links.entry).toBe('/_nuxt/entry.js');
    expect(links.modulepreload).toEqual(['/_nuxt/shared.js', '/_nuxt/a.js', '/_nuxt/only-a.js']);
    expect(links.stylesheets).toEqual(['/_nuxt/entry.css', '/_nuxt/a.css', '/_nuxt/only-a.css']);
  });

  it('link nothing of the pages that did not match', () => {
    const links = linksFor(manifest, 'src/entry-client.tsx', ['src/app/pages/b.tsx'], '/_nuxt/');
    expect(links.modulepreload).toEqual(['/_nuxt/shared.js', '/_nuxt/b.js']);
    expect(links.modulepreload.join()).not.toMatch(/only-a|\/a\.js/);
    expect(links.stylesheets).toEqual(['/_nuxt/entry.css']);
  });

  it('fails clearly when the entry is not in the manifest', () => {
    expect(() => linksFor(manifest, 'src/nope.tsx', [], '/_nuxt/')).toThrow(/no entry src\/nope\.tsx/);
  });
});

const SITE = { name: 'Cookbook', description: 'Recipes with code you can copy.' };

describe('page head', () => {
  it('formats the title, defaults the description and makes the canonical URL absolute', () => {
    const head = resolveHead({ title: 'Git' }, { data: null, params: {}, path: '/category/git' }, 'https://cookbook.example/', SITE);
    expect(head).toMatchObject({ title: 'Git | Cookbook', canonical: 'https://cookbook.example/category/git', robots: true });
    expect(head.description).toBe(SITE.description);
    expect(resolveHead({ title: 'Cookbook' }, { data: null, params: {}, path: '/' }, 'https://x.test', SITE).title).toBe('Cookbook');
  });

  it('computes head from the page data when head is a function', () => {
    const head = resolveHead(
      ({ data }) => ({ title: (data as { t: string }).t }),
      { data: { t: 'TS' }, params: {}, path: '/' },
      'https://x.test',
      SITE,
    );
    expect(head.title).toBe('TS | Cookbook');
  });

  it('escapes what it writes into the document', () => {
    const tags = renderHeadTags({
      title: '</title><script>x</script>',
      description: '"><img>',
      canonical: 'https://x.test/"',
      robots: false,
    });
    expect(tags).not.toContain('<script>');
    expect(tags).not.toContain('"><img>');
    expect(tags).toContain('<meta name="robots" content="noindex">');
  });
});
