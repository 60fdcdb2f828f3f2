import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildContent } from './build-content.js';
import { ContentValidationError, type ContentIssue } from './issues.js';
import { category, createFixture, icons, recipe, type Fixture } from '../test-support/content-fixture.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await createFixture();
});
afterEach(() => fx.cleanup());

async function issuesOf(): Promise<ContentIssue[]> {
  const error = await buildContent({ rootDir: fx.root, outDir: null, icons }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContentValidationError);
  return (error as ContentValidationError).issues;
}

describe('content validation names the file and the field', () => {
  it('builds the valid fixture', async () => {
    const content = await buildContent({ rootDir: fx.root, outDir: null, icons });
    expect(content.recipes.map((r) => r.id)).toEqual(['undo']);
  });

  it('an unknown category', async () => {
    await fx.write('content/recipes/undo.md', recipe({ category: 'gti' }));
    expect(await issuesOf()).toEqual([
      { file: 'content/recipes/undo.md', field: 'category', message: expect.stringContaining('unknown category "gti"') },
    ]);
  });

  it('a missing title, in the message too', async () => {
    await fx.write('content/recipes/undo.md', recipe({ title: undefined }));
    const error = await buildContent({ rootDir: fx.root, outDir: null, icons }).catch((e: Error) => e);
    expect(String(error)).toContain('content/recipes/undo.md: title: is required');
  });

  it('an icon that does not exist, and a collection that does not exist', async () => {
    await fx.write('content/recipes/undo.md', recipe({ icon: 'lucide:no-such-icon-here' }));
    await fx.write('content/categories/git.md', category({ icon: 'nosuchset:git' }));
    const issues = await issuesOf();
    expect(issues).toContainEqual({
      file: 'content/recipes/undo.md',
      field: 'icon',
      message: expect.stringContaining('does not exist in the lucide collection'),
    });
    expect(issues).toContainEqual({
      file: 'content/categories/git.md',
      field: 'icon',
      message: expect.stringContaining('"nosuchset" is not an Iconify collection'),
    });
  });

  it('an icon name not in collection:name form', async () => {
    await fx.write('content/recipes/undo.md', recipe({ icon: 'git-branch' }));
    expect((await issuesOf())[0]).toMatchObject({ field: 'icon', message: expect.stringContaining('Iconify name') });
  });

  it('a missing cover file', async () => {
    await fx.write('content/categories/git.md', category({ cover: '/images/missing.jpg' }));
    expect(await issuesOf()).toContainEqual({
      file: 'content/categories/git.md',
      field: 'cover',
      message: 'file public/images/missing.jpg does not exist',
    });
  });

  it('a cover that is not an image', async () => {
    await fx.write('public/images/fake.png', 'not a png');
    await fx.write('content/categories/git.md', category({ cover: '/images/fake.png' }));
    expect((await issuesOf())[0]).toMatchObject({ field: 'cover', message: expect.stringContaining('not a readable image') });
  });

  it('a file name that is not a lowercase slug', async () => {
    await fx.write('content/recipes/Undo_Commit.md', recipe());
    expect(await issuesOf()).toContainEqual({
      file: 'content/recipes/Undo_Commit.md',
      field: 'id (file name)',
      message: expect.stringContaining('not a lowercase slug'),
    });
  });

  it('duplicate ids in two folders', async () => {
    await fx.write('content/recipes/other/undo.md', recipe());
    expect(await issuesOf()).toContainEqual({
      file: 'content/recipes/undo.md',
      field: 'id (file name)',
      message: 'duplicate id "undo", also used by content/recipes/other/undo.md',
    });
  });

  it('an unknown field (a typo) and a wrong type', async () => {
    await fx.write('content/recipes/undo.md', recipe({ tittle: 'x', tags: 'git' }));
    const issues = await issuesOf();
    expect(issues).toContainEqual({ file: 'content/recipes/undo.md', field: 'tittle', message: 'is not a known field' });
    expect(issues.some((i) => i.field === 'tags')).toBe(true);
  });

  it('broken YAML', async () => {
    await fx.write('content/recipes/undo.md', '---\ntitle: [unclosed\n---\nbody');
    expect((await issuesOf())[0]).toMatchObject({ file: 'content/recipes/undo.md', field: '(front matter)' });
  });

  it('a code block in an unknown language and a heading above h3, with the line', async () => {
    await fx.write('content/recipes/undo.md', recipe({}, 'Text\n\n## Too big\n\n```klingon\nx\n```\n'));
    const issues = await issuesOf();
    expect(issues).toContainEqual({
      file: 'content/recipes/undo.md',
      field: 'body (line 3)',
      message: expect.stringContaining('heading level h2'),
    });
    expect(issues).toContainEqual({
      file: 'content/recipes/undo.md',
      field: 'body (line 5)',
      message: 'unknown code block language "klingon"',
    });
  });

  it('two recipes whose anchors collide on one category page', async () => {
    await fx.write('content/recipes/undo.md', recipe({}, '### Commit\n'));
    await fx.write('content/recipes/undo-commit.md', recipe());
    expect((await issuesOf())[0]).toMatchObject({ field: 'body', message: expect.stringContaining('anchor "#undo-commit"') });
  });

  it('reports every problem at once', async () => {
    await fx.write('content/recipes/a.md', recipe({ title: undefined }));
    await fx.write('content/recipes/b.md', recipe({ category: 'nope' }));
    const files = (await issuesOf()).map((i) => i.file).sort();
    expect(files).toEqual(['content/recipes/a.md', 'content/recipes/b.md']);
  });
});
