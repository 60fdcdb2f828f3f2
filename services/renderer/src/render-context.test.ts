import { describe, expect, it } from 'vitest';
import type { ViteManifest } from './manifest-links.js';
import { pageLinks, type RenderContext } from './render-context.js';

const manifest: ViteManifest = {
  'src/entry-client.tsx': { file: 'entry.js', isEntry: true, imports: ['_react.js'], css: ['app.css'] },
  '_react.js': { file: 'react.js' },
  'pages/a.tsx': { file: 'a.js', isDynamicEntry: true, imports: ['_react.js', '_shared.js'], css: ['a.css'] },
  'pages/b.tsx': { file: 'b.js', isDynamicEntry: true, imports: ['_shared.js'] },
  '_shared.js': { file: 'shared.js' },
};

function contextWith(overrides: Partial<RenderContext> = {}): RenderContext {
  return { manifest, entry: { clientEntry: 'src/entry-client.tsx' }, assetsPrefix: '/_nuxt/', ...overrides } as RenderContext;
}

describe("a page's links", () => {
  it("are the manifest's, made once per page and prefix and then given again", () => {
    const context = contextWith();
    const a = pageLinks(context, ['pages/a.tsx']);
    expect(a).toEqual({
      entry: '/_nuxt/entry.js',
      modulepreload: ['/_nuxt/react.js', '/_nuxt/a.js', '/_nuxt/shared.js'],
      stylesheets: ['/_nuxt/app.css', '/_nuxt/a.css'],
    });
    expect(pageLinks(context, ['pages/a.tsx'])).toBe(a);
    expect(pageLinks(context, ['pages/b.tsx']).modulepreload).toEqual(['/_nuxt/react.js', '/_nuxt/b.js', '/_nuxt/shared.js']);
    expect(pageLinks(contextWith({ assetsPrefix: 'https://cdn.example/' }), ['pages/a.tsx']).entry).toBe('https://cdn.example/entry.js');
  });

  it("are the dev server's own where it serves the assets", () => {
    const links = { entry: '/@vite/entry', modulepreload: [], stylesheets: [] };
    const context = contextWith({ assets: { links: () => links } as unknown as RenderContext['assets'] });
    expect(pageLinks(context, ['pages/a.tsx'])).toBe(links);
  });
});
