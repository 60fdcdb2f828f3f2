import { describe, expect, it } from 'vitest';
import { isHttpError } from '@tern/shared/errors/errors';
import { pageFilesFrom, type PageModule } from './page-module.js';
import { pageNotFound, runValidate } from './validate.js';

const load = async () => ({ default: () => null }) as PageModule;

describe('file routes', () => {
  it('name and path pages as Nuxt does, static paths before dynamic ones', () => {
    const files = pageFilesFrom(
      {
        './pages/category/[id].tsx': load,
        './pages/index.tsx': load,
        './pages/login.tsx': load,
        './pages/category/new.tsx': load,
      },
      '../../site/app',
    );
    expect(files.map(({ id, path, file }) => ({ id, path, file }))).toEqual([
      { id: 'index', path: '/', file: '../../site/app/pages/index.tsx' },
      { id: 'category-new', path: '/category/new', file: '../../site/app/pages/category/new.tsx' },
      { id: 'login', path: '/login', file: '../../site/app/pages/login.tsx' },
      { id: 'category-id', path: '/category/:id', file: '../../site/app/pages/category/[id].tsx' },
    ]);
  });
});

describe('route errors', () => {
  const to = { fullPath: '/category/BAD?x=1', path: '/category/BAD', params: { id: 'BAD' } };

  it("a path with no page is a 404 'Page not found: {path}'", () => {
    const error = pageNotFound('/nope?x=1');
    expect(error).toMatchObject({ statusCode: 404, statusMessage: 'Page not found: /nope?x=1', data: { path: '/nope?x=1' } });
    expect(error.fatal).toBe(false);
  });

  it("a failing validate is a fatal 404 'Page Not Found: {path}'", async () => {
    const error: unknown = await runValidate(() => false, to).catch((e: unknown) => e);
    expect(isHttpError(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 404, statusMessage: 'Page Not Found: /category/BAD?x=1', fatal: true });
  });

  it('a validator may give its own status and message', async () => {
    const error = await runValidate(async () => ({ statusCode: 410, statusMessage: 'Gone for good' }), to).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 410, statusMessage: 'Gone for good', fatal: true });
  });

  it('passes when validate answers true, or when there is none', async () => {
    await expect(runValidate(() => true, to)).resolves.toBeUndefined();
    await expect(runValidate(undefined, to)).resolves.toBeUndefined();
  });
});
