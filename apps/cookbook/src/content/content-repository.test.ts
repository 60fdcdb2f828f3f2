import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentRepository, loadContentRepository } from './repository.js';
import { sample } from '../test-support/content-sample.js';

describe('content repository', () => {
  const repo = createContentRepository(sample);

  it('lists categories in order and finds one by id', () => {
    expect(repo.categories().map((c) => c.id)).toEqual(['git', 'sql', 'empty']);
    expect(repo.category('sql')?.title).toBe('sql');
    expect(repo.category('nope')).toBeUndefined();
  });

  it('gives the recipes of a category in reading order; none for unknown or empty', () => {
    expect(repo.recipesOf('git').map((r) => r.id)).toEqual(['a', 'b']);
    expect(repo.recipesOf('empty')).toEqual([]);
    expect(repo.recipesOf('nope')).toEqual([]);
  });

  it('features marked recipes first, then the first of each category, without html', () => {
    expect(repo.featured(10).map((r) => r.id)).toEqual(['star', 'a', 'q']);
    expect(repo.featured(2).map((r) => r.id)).toEqual(['star', 'a']);
    expect(repo.featured(0)).toEqual([]);
    expect(repo.featured(-3)).toEqual([]);
    expect(repo.featured(Number.NaN)).toEqual([]);
    expect(repo.featured(1)[0]).not.toHaveProperty('html');
  });

  it('returns copies: a caller cannot change the stored content', () => {
    repo.category('git')!.title = 'changed';
    repo.recipe('a')!.tags.push('x');
    repo.recipesOf('git')[0]!.html = 'changed';
    expect(repo.category('git')!.title).toBe('git');
    expect(repo.recipe('a')!.tags).toEqual([]);
    expect(repo.recipe('a')!.html).toBe('<p>a</p>');
    expect(repo.codeCss()).toBe('.x{}');
  });

  it('copies nested arrays and objects of every recipe list, not only the top level', () => {
    const first = repo.recipesOf('git')[0]!;
    first.tags.push('x');
    first.headings.push({ id: 'h', text: 'h', level: 2 });
    if (first.cover) first.cover.src = 'changed';
    const again = repo.recipesOf('git')[0]!;
    expect(again.tags).not.toContain('x');
    expect(again.headings).toHaveLength(first.headings.length - 1);
    expect(again.cover?.src).not.toBe('changed');
  });

  it('returns plain JSON-serialisable objects', () => {
    const data = { categories: repo.categories(), recipes: repo.recipesOf('sql') };
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });
});

describe('loadContentRepository', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-repo-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('loads a content file', async () => {
    await writeFile(join(dir, 'ok.json'), JSON.stringify(sample));
    expect((await loadContentRepository(join(dir, 'ok.json'))).recipe('q')?.categoryId).toBe('sql');
  });

  it('names the file and the fix when it is missing, not JSON, or another version', async () => {
    await expect(loadContentRepository(join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json: ENOENT \(run `npm run build:content` first\)/,
    );
    await writeFile(join(dir, 'bad.json'), '{nope');
    await expect(loadContentRepository(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json is not valid JSON/);
    await writeFile(join(dir, 'v2.json'), JSON.stringify({ ...sample, version: 2 }));
    await expect(loadContentRepository(join(dir, 'v2.json'))).rejects.toThrow(/not a version 1 content file/);
  });
});
