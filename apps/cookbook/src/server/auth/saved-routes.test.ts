import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from './demo-account.js';
import { cookieOf, login, ORIGIN, startAccountsApp, type AccountsApp } from '../../test-support/accounts-app.js';

let t: AccountsApp;
let cookie: string;
beforeAll(async () => {
  t = await startAccountsApp();
  cookie = cookieOf(await login(t.app, { email: DEMO_EMAIL, password: DEMO_PASSWORD }));
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = { cookie }) =>
  t.app.inject({ method, url, headers: { origin: ORIGIN, ...headers } });

describe('saved recipes', () => {
  it('answers 401 to anonymous visitors, offering the login', async () => {
    for (const [method, url] of [
      ['GET', '/api/saved'],
      ['POST', '/api/saved/a'],
      ['DELETE', '/api/saved/a'],
    ] as const) {
      const response = await call(method, url, {});
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ statusCode: 401, message: 'Sign in to save recipes' });
    }
  });

  it('saves (201, then 200 when already saved), lists newest first and unsaves', async () => {
    expect((await call('POST', '/api/saved/a')).statusCode).toBe(201);
    const star = await call('POST', '/api/saved/star');
    expect(star.statusCode).toBe(201);
    expect(star.json()).toEqual({ recipeId: 'star', saved: true });
    expect((await call('POST', '/api/saved/a')).statusCode).toBe(200);

    const list = await call('GET', '/api/saved');
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.json().recipes.map((r: { id: string }) => r.id)).toEqual(['star', 'a']);
    expect(list.json().recipes[0]).toMatchObject({ id: 'star', categoryId: 'sql', href: '/category/sql#star' });
    expect(list.json().recipes[0]).not.toHaveProperty('html');

    const removed = await call('DELETE', '/api/saved/a');
    expect(removed.json()).toEqual({ recipeId: 'a', saved: false });
    expect((await call('GET', '/api/saved')).json().recipes.map((r: { id: string }) => r.id)).toEqual(['star']);
  });

  it('answers 404 for a recipe the content does not have', async () => {
    for (const id of ['nope', '..%2Fetc', 'x'.repeat(300)]) {
      const response = await call('POST', `/api/saved/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ statusCode: 404, message: expect.stringContaining('No recipe with the id') });
    }
  });

  it('refuses a cross-site save or unsave', async () => {
    expect((await call('POST', '/api/saved/b', { cookie, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await call('DELETE', '/api/saved/star', { cookie, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await call('GET', '/api/saved')).json().recipes.map((r: { id: string }) => r.id)).toEqual(['star']);
  });
});

describe('the save button as a plain form', () => {
  const postForm = (recipeId: string, fields: Record<string, string>, headers: Record<string, string> = { cookie }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/saved/${recipeId}`,
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  const savedIds = async () => (await call('GET', '/api/saved')).json().recipes.map((r: { id: string }) => r.id) as string[];

  it('saves and removes as the form says, then sends the browser back to the recipe', async () => {
    const save = await postForm('b', { saved: 'true', redirect: '/category/git?sort=new#b' });
    expect([save.statusCode, save.headers.location, save.headers['cache-control']]).toEqual([303, '/category/git?sort=new#b', 'no-store']);
    expect(await savedIds()).toContain('b');
    const remove = await postForm('b', { saved: 'false', redirect: '/category/git#b' });
    expect(remove.headers.location).toBe('/category/git#b');
    expect(await savedIds()).not.toContain('b');
  });

  it('sends a visitor whose session has ended to the login and back, and refuses an unclear form', async () => {
    const anonymous = await postForm('b', { saved: 'true', redirect: '/category/git#b' }, {});
    expect([anonymous.statusCode, anonymous.headers.location]).toEqual([303, '/login?redirect=%2Fcategory%2Fgit%23b']);
    const unclear = await postForm('b', { saved: 'yes' }, { cookie, accept: 'application/json' });
    expect(unclear.statusCode).toBe(400);
    expect((await postForm('nope', { saved: 'true' }, { cookie, accept: 'application/json' })).statusCode).toBe(404);
    expect(await savedIds()).not.toContain('b');
  });
});

describe('the viewer loaders see', () => {
  it('is the signed-in user with their saved ids, or null', async () => {
    const request = (headers: Record<string, string>) => new Request('http://localhost/', { headers });
    expect(await t.accounts.viewer(request({}))).toBeNull();
    expect(await t.accounts.viewer(request({ cookie: 'cookbook_session=forged' }))).toBeNull();
    const viewer = await t.accounts.viewer(request({ cookie }));
    expect(viewer).toEqual({ user: { id: expect.any(String), email: DEMO_EMAIL, name: 'Demo Cook' }, saved: ['star'] });
  });
});
