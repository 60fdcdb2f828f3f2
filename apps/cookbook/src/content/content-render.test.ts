import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildContent } from './build-content.js';
import { contrastRatio } from './contrast.js';
import { loadContentRepository } from './repository.js';
import { createFixture, icons, recipe, textOf, type Fixture } from '../test-support/content-fixture.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await createFixture();
});
afterEach(() => fx.cleanup());

async function render(body: string) {
  await fx.write('content/recipes/undo.md', recipe({}, body));
  const content = await buildContent({ rootDir: fx.root, outDir: null, icons });
  return { content, html: content.recipes[0]!.html };
}

const TS = 'const a: Array<number> = [1, 2];\nif (a.length > 1 && a[0] < 2) console.log("<b>&amp;</b>");\n';

describe('recipe rendering', () => {
  it('highlights code on the server into a stable, script-free wrapper', async () => {
    const { html } = await render(`\`\`\`ts\n${TS}\`\`\`\n`);
    expect(html).toContain(
      '<figure class="code-block" data-code-block data-language="typescript"><figcaption data-code-language>TypeScript</figcaption><pre class="shiki',
    );
    expect(html).toMatch(/<span class="ct\d+">const<\/span>/);
    expect(html).not.toMatch(/<script|style=|on\w+=/i);
  });

  it('keeps the exact source as the code block text, for the copy button', async () => {
    const { html } = await render(`\`\`\`ts\n${TS}\`\`\`\n\n\`\`\`text\n<not html> & "quotes"\n\`\`\`\n`);
    const pres = [...html.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => textOf(m[1]!));
    expect(pres).toEqual([TS.replace(/\n$/, ''), '<not html> & "quotes"']);
  });

  it('writes a stylesheet with light and dark colours that all read at WCAG AA', async () => {
    const { content } = await render(`\`\`\`bash\n# a comment\necho "hi" | grep -q h\n\`\`\`\n`);
    expect(content.codeCss).toContain('html.dark [data-code-block]');
    const bg = {
      light: /pre\.shiki\{background:(#\w+)/.exec(content.codeCss)![1]!,
      dark: /dark \[data-code-block\] pre\.shiki\{background:(#\w+)/.exec(content.codeCss)![1]!,
    };
    const rules = [...content.codeCss.matchAll(/^(html\.dark )?\[data-code-block\] \.ct\d+\{color:(#\w+)/gm)];
    expect(rules.length).toBeGreaterThan(4);
    for (const [, dark, color] of rules) {
      expect(contrastRatio(color!, dark ? bg.dark : bg.light)).toBeGreaterThanOrEqual(4.5);
    }
    expect(content.recipes[0]!.languages).toEqual(['Bash']);
  });

  it('gives headings anchors prefixed by the recipe id, unique within the recipe', async () => {
    const { html, content } = await render('### Set up `git`\n\ntext\n\n### Set up git\n');
    expect(html).toContain('<h3 id="undo-set-up-git"><a href="#undo-set-up-git" class="heading-anchor">Set up <code>git</code></a></h3>');
    expect(content.recipes[0]!.headings).toEqual([
      { id: 'undo-set-up-git', text: 'Set up git', level: 3 },
      { id: 'undo-set-up-git-2', text: 'Set up git', level: 3 },
    ]);
  });

  it('opens external links safely and leaves internal links alone', async () => {
    const { html } = await render('[docs](https://git-scm.com/docs) and [home](/category/git#undo) and [x](//evil.example/)\n');
    expect(html).toContain('<a href="https://git-scm.com/docs" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(html).toContain('<a href="/category/git#undo">home</a>');
    expect(html).toContain('<a href="//evil.example/" target="_blank" rel="noopener noreferrer">x</a>');
  });

  it('escapes raw HTML and refuses javascript: links', async () => {
    const { html } = await render('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))\n');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript:');
  });

  it('fills in the summary fields: href, defaults, cover size, counts', async () => {
    const { content } = await render('text\n');
    expect(content.recipes[0]).toMatchObject({
      id: 'undo',
      categoryId: 'git',
      href: '/recipes/undo',
      featured: false,
      order: 100,
      cover: null,
      tags: ['git'],
    });
    expect(content.categories[0]).toMatchObject({
      id: 'git',
      recipeCount: 1,
      cover: { src: '/images/git.png', width: 320, height: 180, alt: '' },
    });
    expect(content.iconCollections).toEqual(['logos', 'lucide']);
  });

  it('writes content.json and code.css that the repository can load', async () => {
    const outDir = join(fx.root, 'out');
    await buildContent({ rootDir: fx.root, outDir, icons });
    expect(await readFile(join(outDir, 'code.css'), 'utf8')).toContain('[data-code-block]');
    const repository = await loadContentRepository(join(outDir, 'content.json'));
    expect(repository.category('git')?.recipeCount).toBe(1);
    expect(repository.recipe('undo')?.html).toContain('<p>Some text.</p>');
  });
});
