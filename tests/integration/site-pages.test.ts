import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { addUser, DEMO, Visitor } from './site-support.js';

let stack: Stack;
let dir: string;
let usersFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-'));
  usersFile = join(dir, 'users.json');
  stack = await startStack({ redis: false, env: { USERS_FILE: usersFile } });
});
afterAll(async () => {
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the pages', () => {
  it('home lists every category with icon, optimised cover, title and count, and featured recipes', async () => {
    const html = await new Visitor(stack.url).html('/');
    expect(html).toContain('data-layout="default"');
    for (const id of ['git', 'docker', 'typescript']) expect(html).toContain(`href="/category/${id}"`);
    expect(html).toMatch(/<img[^>]+src="\/_ipx\/[^"]*\/images\/[^"]+"[^>]+srcSet="[^"]+ 640w/);
    expect(html).toMatch(/data-recipe-count="4">4 recipes</);
    expect(html).toContain('Featured recipes');
    expect(html).toMatch(/href="\/recipes\/[a-z0-9-]+"/);
    expect(html).not.toContain('Your saved recipes');
    expect(html).toContain('href="/login"');
  });

  it('a category shows its icon, description and recipes as rich text, each recipe an anchor', async () => {
    const response = await new Visitor(stack.url).fetch('/category/git', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Git<\/h1>/);
    const anchors = [...html.matchAll(/<section id="([a-z0-9-]+)"[^>]*data-recipe="\1"/g)].map((m) => m[1]);
    expect(anchors).toHaveLength(4);
    expect(html).toContain('<figure class="code-block" data-code-block');
    expect(html).toContain('class="shiki');
    // Anonymous visitors are offered the login, and come back to the recipe.
    expect(html).toContain(`href="/login?redirect=${encodeURIComponent(`/category/git#${anchors[0]}`)}"`);
  });

  it('a featured recipe link leads to the recipe page, and its old anchor still exists on its category page', async () => {
    const visitor = new Visitor(stack.url);
    const home = await visitor.html('/');
    const slug = /href="\/recipes\/([a-z0-9-]+)"/.exec(home)![1]!;
    const recipe = await visitor.html(`/recipes/${slug}`);
    const category = /href="(\/category\/[a-z-]+)"/.exec(recipe.slice(recipe.indexOf('<main')))![1]!;
    expect(await visitor.html(category)).toContain(`id="${slug}"`);
  });

  it('an unknown category, or an id that is not a lowercase slug, is a 404', async () => {
    const visitor = new Visitor(stack.url);
    for (const path of ['/category/nope', '/category/Git', '/category/git_stuff', '/category/-git', `/category/${'a'.repeat(65)}`]) {
      const response = await visitor.fetch(path, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('Page Not Found');
    }
    const json = await visitor.fetch('/category/nope', { headers: { accept: 'application/json' } });
    expect(await json.json()).toMatchObject({ statusCode: 404 });
  });

  it('login stands outside the default layout', async () => {
    const html = await new Visitor(stack.url).html('/login');
    expect(html).toContain('data-page="login"');
    expect(html).not.toContain('data-layout="default"');
    expect(html).toMatch(/<label[^>]*>Email<\/label>/);
  });
});

describe('signing in', () => {
  it('signs the demo account in, shows the name and saved recipes, and signs out', async () => {
    const visitor = new Visitor(stack.url);
    const response = await visitor.login(DEMO.email, DEMO.password);
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^cookbook_session=[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await visitor.html('/')).toContain('Demo Cook');
    expect((await visitor.fetch('/api/auth/session')).headers.get('cache-control')).toBe('no-store');

    expect((await visitor.fetch('/api/saved/undo-last-commit', { method: 'POST' })).status).toBeLessThan(300);
    const home = await visitor.html('/');
    expect(home).toContain('Your saved recipes');
    expect(home).toMatch(/aria-label="Your saved recipes"[\s\S]*href="\/recipes\/undo-last-commit"/);
    expect(await visitor.html('/category/git')).toContain('Remove from saved');
    expect((await visitor.fetch('/api/saved/undo-last-commit', { method: 'DELETE' })).status).toBe(200);
    expect(await visitor.html('/')).toContain('Nothing saved yet');

    expect((await visitor.fetch('/api/auth/logout', { method: 'POST' })).status).toBe(200);
    expect(visitor.cookie).toBe('');
    const after = await visitor.html('/');
    expect(after).not.toContain('Demo Cook');
  });

  it('answers a wrong password with 401 and no cookie', async () => {
    const visitor = new Visitor(stack.url);
    const response = await visitor.login(DEMO.email, 'not-the-password');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ statusCode: 401, message: 'Wrong email or password' });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a login posted from another origin', async () => {
    const response = await new Visitor(stack.url).fetch('/api/auth/login', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      json: DEMO,
    });
    expect(response.status).toBe(403);
  });

  it('answers 429 with Retry-After after five failures for one address and email', async () => {
    const visitor = new Visitor(stack.url);
    const email = 'limited@cookbook.test';
    for (let i = 0; i < 5; i++) expect((await visitor.login(email, `wrong-${i}`)).status).toBe(401);
    const blocked = await visitor.login(email, 'wrong-again');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await blocked.json()).toMatchObject({ statusCode: 429, message: expect.stringContaining('Too many failed sign-ins') });
  });

  it('never redirects off the site after login', async () => {
    const visitor = new Visitor(stack.url);
    const cases: [string, string][] = [
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/\\evil.example', '/'],
      ['javascript:alert(1)', '/'],
      ['/category/git#undo-last-commit', '/category/git#undo-last-commit'],
    ];
    for (const [target, expected] of cases) {
      const response = await visitor.fetch(`/login/_payload.json?redirect=${encodeURIComponent(target)}`);
      const payload = (await response.json()) as { data: Record<string, { redirectTo?: string }> };
      expect(payload.data.login?.redirectTo, target).toBe(expected);
    }
  });

  it('lets a user added with `npm run users` sign in to the running server', async () => {
    const added = await addUser({ USERS_FILE: usersFile, REDIS_URL: '' }, 'Cli@Cookbook.test', 'Cli Cook', 'a long enough password');
    expect(added.code, added.out).toBe(0);
    expect(added.out).toContain('added cli@cookbook.test (Cli Cook');
    const visitor = new Visitor(stack.url);
    expect((await visitor.login('cli@cookbook.test', 'a long enough password')).status).toBe(200);
    const again = await addUser({ USERS_FILE: usersFile, REDIS_URL: '' }, 'cli@cookbook.test', 'Twice', 'a long enough password');
    expect(again.code).toBe(1);
    expect(again.out).toContain('already exists');
    const short = await addUser({ USERS_FILE: usersFile, REDIS_URL: '' }, 'short@cookbook.test', 'Short', 'short');
    expect(short.out).toContain('password: expected at least 8 characters');
  });

  it('prints the demo account once in the renderer log', () => {
    const lines = stack.logs('renderer').filter((line) => line.includes('demo account'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`sign in as ${DEMO.email} with the password ${DEMO.password}`);
  });
});
