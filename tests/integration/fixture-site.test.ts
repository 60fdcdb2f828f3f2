/**
 * The platform serves a site it was not written for: tests/fixtures/tiny-site (two pages, one
 * route rule, one server route, no cookbook), built by the same `vite build` and build-meta step
 * into a folder of its own (BUILD_DIR) and served by the four services through the gateway.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { PERSON_USER_AGENT } from '../support/chromium.js';
import { startStack, type Stack } from '../support/stack.js';

const run = promisify(execFile);
const SITE = join(projectRoot, 'tests', 'fixtures', 'tiny-site', 'site.ts');

let buildDir: string;
let stack: Stack;

beforeAll(async () => {
  // Inside the project, as dist/ is: the server bundle imports its packages from node_modules.
  buildDir = await mkdtemp(join(projectRoot, 'dist', 'tiny-site-'));
  const env = { ...process.env, SITE, BUILD_DIR: buildDir, NODE_ENV: 'production' };
  await run(
    process.execPath,
    [join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'packages/vite-plugin/vite.config.ts'],
    {
      cwd: projectRoot,
      env,
    },
  );
  await run(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'write-build-meta.js')], { cwd: projectRoot, env });
  stack = await startStack({ env: { BUILD_DIR: buildDir } });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await rm(buildDir, { recursive: true, force: true });
});

describe('a second site on the platform', () => {
  it('builds with its own name, rules and no session cookie', async () => {
    const site = JSON.parse(await readFile(join(buildDir, 'ssr', 'site.json'), 'utf8')) as Record<string, unknown>;
    expect(site).toMatchObject({ name: 'Tiny', dataFiles: [] });
    expect(site).not.toHaveProperty('sessionCookie');
    const meta = JSON.parse(await readFile(join(buildDir, 'build', 'meta.json'), 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({ matcher: { '/hello': { redirect: { to: '/about', statusCode: 301 } } } });
    expect(meta).not.toHaveProperty('sessionCookie');
  });

  it("renders its home page with its loader's data from its server part, in its layout and under its name", async () => {
    const response = await fetch(`${stack.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>Home | Tiny</title>');
    expect(html).toContain('<meta name="description" content="A site of two pages.">');
    expect(html).toContain('data-layout="tiny"');
    expect(html).toContain('Hello from a tiny site');
    expect(html).not.toMatch(/cookbook|recipe/i);
  });

  it('renders its second page, and its payload for a client navigation', async () => {
    const html = await (await fetch(`${stack.url}/about`)).text();
    expect(html).toContain('<title>About | Tiny</title>');
    expect(html).toContain('About the tiny site');
    const payload = await fetch(`${stack.url}/_payload.json`);
    expect(payload.status).toBe(200);
    expect(((await payload.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      index: { greeting: 'Hello from a tiny site' },
    });
  });

  it('applies its route rule at the gateway', async () => {
    const response = await fetch(`${stack.url}/hello`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/about');
  });

  it('answers its server route, and a 404 for the cookbook pages it does not have', async () => {
    const api = await fetch(`${stack.url}/api/greeting`);
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ greeting: 'Hello from a tiny site' });
    expect((await fetch(`${stack.url}/category/git`)).status).toBe(404);
    expect((await fetch(`${stack.url}/api/categories`)).status).toBe(404);
  });

  it("answers a missing page with its own error page, inside its layout, status and title the platform's", async () => {
    const response = await fetch(`${stack.url}/no-such-page`, { headers: { accept: 'text/html', 'user-agent': PERSON_USER_AGENT } });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('data-tiny-error="404"');
    expect(html).toContain('Nothing here, tiny as this site is');
    expect(html).toContain('data-layout="tiny"');
    expect(html).toMatch(/<title>404 - Page Not Found/);
  });

  it('serves the client build it made, and the browser entry links it', async () => {
    const html = await (await fetch(`${stack.url}/about`)).text();
    // The bootstrap names the entry; every page links its chunks under the assets prefix.
    const entry = /\/_nuxt\/entry-client-[\w-]+\.js/.exec(html)?.[0];
    expect(entry).toBeDefined();
    const script = await fetch(`${stack.url}${entry}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  });
});
