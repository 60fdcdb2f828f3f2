/** Wrong methods: 405 with Allow where the path exists for other methods, 404 where it does not. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtApp, builtReason, type BuiltApp } from './test-support/built-app.js';

describe.skipIf(builtReason)('renderer methods', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    built = await builtApp();
  });
  afterAll(() => built?.app.close());

  it.each([
    ['POST', '/category/git', 'GET, HEAD'],
    ['DELETE', '/', 'GET, HEAD'],
    ['PUT', '/category/git/_payload.json', 'GET, HEAD'],
    ['POST', '/api/categories/git', 'GET, HEAD'],
    ['POST', '/_nuxt/nothing.js', 'GET, HEAD'],
  ])('%s %s is 405 with Allow: %s', async (method, url, allow) => {
    const response = await built.app.inject({ method: method as 'POST', url, headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toMatchObject({ statusCode: 405, url });
  });

  it.each(['/api/nothing', '/api'])('POST %s is 404: no method serves it', async (url) => {
    const response = await built.app.inject({ method: 'POST', url, headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(404);
  });
});
