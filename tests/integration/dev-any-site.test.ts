/**
 * `npm run dev` and `npm run typecheck` for a site that is not the project's own (apps/cookbook; a copy of the
 * tiny fixture in a folder of its own): its types are checked; the dev stack serves it through
 * the gateway without ever answering with another site's build (one is published where the
 * gateway used to look); a server route added while it runs answers without a restart by hand;
 * and the icon service says nothing about icon sets this site does not use.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileBuildStore } from '@tern/shared/build-store/file-build-store';
import { projectRoot } from '@tern/shared/config/paths';
import { PERSON_USER_AGENT } from '../support/chromium.js';
import { findFreeBasePort } from '@tern/cli/ports';
import { devSiteOf } from '@tern/cli/dev-site';

const FIXTURE = join(projectRoot, 'tests', 'fixtures', 'tiny-site');
const GREETING = 'Hello from a copied site';

let root: string;
let siteDir: string;
let dev: ChildProcess | undefined;
let output = '';
let base: number;

/** Three folders below the project, as the fixture is, so its relative imports of the platform hold. */
async function copySite(): Promise<void> {
  root = await mkdtemp(join(projectRoot, 'dist', 'dev-any-site-'));
  siteDir = join(root, 'blog');
  await cp(FIXTURE, siteDir, { recursive: true });
  const server = join(siteDir, 'server.ts');
  await writeFile(server, (await readFile(server, 'utf8')).replace("'Hello from a tiny site'", `'${GREETING}'`));
}

/** Another site's production build, current in the store every service read before (BUILD_DIR/build-store). */
async function publishAnotherSitesBuild(): Promise<void> {
  const store = createFileBuildStore({ dir: join(root, 'build-store') });
  const matcher = { '/**': { headers: { 'x-other-site': 'yes' } }, '/': { redirect: { to: '/other-home', statusCode: 307 } } };
  await store.publish({ id: 'another-site-build', timestamp: Date.now(), matcher, prerendered: [] } as never);
  await store.close();
}

const typecheck = () =>
  spawnSync(process.execPath, [join(projectRoot, 'packages', 'cli', 'src', 'typecheck-site.mjs')], {
    cwd: projectRoot,
    env: { ...process.env, SITE: join(siteDir, 'site.ts'), BUILD_DIR: root },
    encoding: 'utf8',
  });

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms; dev said:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  await copySite();
  await publishAnotherSitesBuild();
}, 60_000);

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once('exit', resolve));
    dev.kill('SIGTERM');
    await exited;
  }
  await rm(root, { recursive: true, force: true });
}, 30_000);

describe('npm run typecheck with SITE', () => {
  it("checks the site's own files, and fails on a type error there", async () => {
    const clean = typecheck();
    expect(clean.status, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain('typecheck: the site of');
    const server = join(siteDir, 'server.ts');
    const source = await readFile(server, 'utf8');
    await writeFile(server, `${source}\nexport const wrong: number = 'not a number';\n`);
    const broken = typecheck();
    await writeFile(server, source);
    expect(broken.status).not.toBe(0);
    expect(broken.stdout).toMatch(/blog\/server\.ts\(\d+,\d+\): error TS2322/);
  }, 180_000);
});

describe('npm run dev with SITE', () => {
  it('serves this site from its first answer, never the build another site left in the store', async () => {
    base = await findFreeBasePort();
    dev = spawn(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'dev.js')], {
      cwd: projectRoot,
      env: { ...process.env, PORT: String(base), BUILD_DIR: root, SITE: join(siteDir, 'site.ts'), REDIS_URL: '', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const seen: Array<{ status: number; other: string | null; location: string | null }> = [];
    const html = await until(
      'the home page',
      async () => {
        const response = await fetch(`http://127.0.0.1:${base}/`, { redirect: 'manual' });
        seen.push({ status: response.status, other: response.headers.get('x-other-site'), location: response.headers.get('location') });
        return response.status === 200 ? response.text() : undefined;
      },
      150_000,
    );
    expect(html).toContain(GREETING);
    expect(html).toContain('<title>Home | Tiny</title>');
    expect(seen.filter((answer) => answer.other !== null || answer.location !== null)).toEqual([]);
    const missing = await fetch(`http://127.0.0.1:${base}/no-such-page`, {
      headers: { accept: 'text/html', 'user-agent': PERSON_USER_AGENT },
    });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('data-tiny-error="404"');
    // Its state is in a folder of its own, keyed by the site file.
    const site = devSiteOf({ SITE: join(siteDir, 'site.ts') }, root);
    expect(JSON.parse(await readFile(join(site.dir, 'site.json'), 'utf8'))).toMatchObject({ name: 'Tiny', defaults: {} });
  }, 180_000);

  it('answers a server route added while it runs, with no restart by hand', async () => {
    const server = join(siteDir, 'server.ts');
    const source = await readFile(server, 'utf8');
    const added = source.replace(
      "app.get('/api/greeting'",
      "app.get('/api/added', async () => ({ added: true }));\n        app.get('/api/greeting'",
    );
    expect(added).not.toBe(source);
    await writeFile(server, added);
    const body = await until(
      'the added route',
      async () => {
        const response = await fetch(`http://127.0.0.1:${base}/api/added`);
        return response.status === 200 ? ((await response.json()) as unknown) : undefined;
      },
      90_000,
    );
    expect(body).toEqual({ added: true });
    expect((await fetch(`http://127.0.0.1:${base}/api/greeting`)).status).toBe(200);
  }, 120_000);

  it('says nothing about icon sets this site does not use', () => {
    expect(output).toMatch(/renderer/);
    expect(output).not.toMatch(/icon set index|no index for the preloaded icon sets|no icon set indexes/i);
    expect(output).not.toMatch(/"level":(40|50)[^\n]*icons|icons[^\n]*"level":(40|50)/);
  });
});
