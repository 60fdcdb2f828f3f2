import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '@tern/shared/http/service';
import { createContentRepository } from './repository.js';
import { categoriesApi } from '../server/api/categories.js';
import { sample } from '../test-support/content-sample.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = createService({ name: 'renderer', logger: pino({ level: 'silent' }), production: true });
  await app.register(categoriesApi, { repository: createContentRepository(sample) });
  await app.ready();
});
afterAll(() => app.close());

describe('GET /api/categories', () => {
  it('lists the categories in order with their counts and covers', async () => {
    const res = await app.inject({ url: '/api/categories' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const body = res.json() as { categories: Array<{ id: string; cover: { width: number } }> };
    expect(body.categories.map((c) => c.id)).toEqual(['git', 'sql', 'empty']);
    expect(body.categories[0]!.cover.width).toBe(1600);
  });
});

describe('GET /api/categories/:id', () => {
  it('answers the category and its recipe summaries', async () => {
    const res = await app.inject({ url: '/api/categories/git' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { category: { id: string }; recipes: Array<Record<string, unknown>> };
    expect(body.category.id).toBe('git');
    expect(body.recipes.map((r) => r.id)).toEqual(['a', 'b']);
    expect(body.recipes[0]).toMatchObject({ href: '/category/git#a' });
    expect(body.recipes[0]).not.toHaveProperty('html');
  });

  it('answers 404 in the error shape for an unknown id', async () => {
    const res = await app.inject({ url: '/api/categories/rust' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      url: '/api/categories/rust',
      statusCode: 404,
      statusMessage: 'Not Found',
      message: 'Category not found: rust',
      code: 'COOKBOOK_CATEGORY_NOT_FOUND',
      data: { id: 'rust' },
    });
  });

  it.each(['Git', 'git_hub', '-git', 'git--x', 'git%2Fx', '%20', 'a'.repeat(65), "git'%20OR%201=1"])(
    'answers 400 for the malformed id %s',
    async (id) => {
      const res = await app.inject({ url: `/api/categories/${id}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        statusCode: 400,
        statusMessage: 'Bad Request',
        message: expect.stringContaining('lowercase slug'),
        data: { field: 'id' },
      });
    },
  );

  it('answers 404 in the error shape for dot segments, which never reach the route', async () => {
    const res = await app.inject({ url: '/api/categories/%2e%2e' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, message: expect.any(String) });
  });

  it('answers JSON even when the client prefers HTML', async () => {
    const res = await app.inject({ url: '/api/categories/nope', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
