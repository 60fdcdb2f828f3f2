/**
 * Issue #33, item 2: a team's site outside this repository. The platform's packages are packed
 * (`npm pack` of packages/* and services/*), a site is made from the tiny fixture in a folder of
 * os.tmpdir() (outside the checkout), the tarballs are installed there (offline from npm's cache
 * where it can), and the site is built, started and dev-served with the `tern` command line
 * through the four services: its pages, its route rule, its server route and its own error page.
 * The fixture imports the platform by package name (@tern/*), so it is copied as it is.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { findFreeBasePort } from '@tern/cli/ports';
import { PERSON_USER_AGENT } from '../support/chromium.js';

const run = promisify(execFile);
const FIXTURE = join(projectRoot, 'tests', 'fixtures', 'tiny-site');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The packages the site itself depends on; the others arrive as their dependencies, from the tarballs too. */
const SITE_PACKAGES = ['@tern/site', '@tern/runtime', '@tern/ui', '@tern/cli'];
const REGISTRY_DEPENDENCIES = ['react', 'react-dom', 'react-router'];

let work: string;
let siteDir: string;
let base: number;
let running: ChildProcess | undefined;
let output = '';

/** Every workspace package of the platform (packages/*, services/*), the private app excluded. */
async function platformPackages(): Promise<string[]> {
  // A tarball carries the compiled dist/ the exports maps' `default` names: the checkout's build makes it.
  if (!existsSync(join(projectRoot, 'packages', 'cli', 'dist', 'launch.js'))) throw new Error('the checkout is not built: npm run build');
  const folders: string[] = [];
  for (const parent of ['packages', 'services']) {
    for (const name of await readdir(join(projectRoot, parent))) {
      const manifest = join(projectRoot, parent, name, 'package.json');
      if (!existsSync(manifest)) throw new Error(`${parent}/${name} has no package.json: the restructure of issue #33 has not landed`);
      const pkg = JSON.parse(await readFile(manifest, 'utf8')) as { private?: boolean };
      if (pkg.private) continue;
      folders.push(join(projectRoot, parent, name));
    }
  }
  return folders;
}

/** `npm pack` of each package into `into`, side by side; its name to its tarball. */
async function packAll(into: string): Promise<Map<string, string>> {
  const packed = await Promise.all(
    (await platformPackages()).map(async (folder) => {
      const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', into], { cwd: folder, maxBuffer: 64 * 1024 * 1024 });
      const [tarball] = JSON.parse(stdout) as Array<{ name: string; filename: string }>;
      if (!tarball) throw new Error(`npm pack gave nothing for ${folder}`);
      return [tarball.name, join(into, tarball.filename)] as const;
    }),
  );
  return new Map(packed);
}

/** The fixture as it is; an import that climbs out of the site would reach the checkout, an error. */
async function makeSite(dir: string): Promise<void> {
  await cp(FIXTURE, dir, { recursive: true });
  for (const file of await readdir(dir, { recursive: true })) {
    if (!/\.tsx?$/.test(file)) continue;
    const climbing = /from '(\.\.\/){2,}[^']*'/.exec(await readFile(join(dir, file), 'utf8'));
    if (climbing) throw new Error(`${file} imports from the checkout: ${climbing[0]}`);
  }
}

async function installedVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(projectRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The site's package.json, as README's "A site on the platform" has a team write it: every
 * tarball (so @tern/* resolve to them, not a registry), React, and `tern.site` naming the site.
 */
async function writeManifest(tarballs: Map<string, string>): Promise<void> {
  for (const name of SITE_PACKAGES) if (!tarballs.has(name)) throw new Error(`no package ${name} was packed`);
  const dependencies: Record<string, string> = {};
  for (const [name, tarball] of tarballs) dependencies[name] = `file:${tarball}`;
  for (const name of REGISTRY_DEPENDENCIES) dependencies[name] = await installedVersion(name);
  const manifest = { name: 'tiny-outside', private: true, type: 'module', tern: { site: 'site.ts' }, dependencies };
  await writeFile(join(siteDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The environment of the site's `tern`: this process's, less what would point it elsewhere (the
 * test runner's NODE_ENV and conditions, a SITE or BUILD_DIR of the checkout's), so the site's
 * package.json and its own dist/ decide, as for a team running it by hand.
 */
function siteEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['SITE', 'BUILD_DIR', 'NODE_ENV', 'NODE_OPTIONS', 'REDIS_URL']) delete env[name];
  return { ...env, ...extra };
}

const ternBin = () => join(siteDir, 'node_modules', '.bin', 'tern');

const tern = (args: string[]) => run(ternBin(), args, { cwd: siteDir, env: siteEnv(), maxBuffer: 64 * 1024 * 1024 });

function startTern(command: 'start' | 'dev'): ChildProcess {
  output = '';
  const child = spawn(ternBin(), [command], { cwd: siteDir, env: siteEnv({ PORT: String(base) }), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `tern` stopped means its services stopped too: nothing answers on the gateway's port. */
async function expectStopped(): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${base}/`).catch(() => undefined);
  expect(answer?.status, 'the services outlived `tern`').toBeUndefined();
}

async function untilHome(timeoutMs: number): Promise<string> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${base}/`).catch(() => undefined);
    if (response?.status === 200) return response.text();
    if (Date.now() - started > timeoutMs) throw new Error(`no home page within ${timeoutMs} ms; tern said:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Until the gateway knows the site's build (its readiness's store check is ok): the renderer answers
 * pages before that, but the route rules come with the build (services/gateway/src/current-build.ts).
 */
async function untilBuildKnown(timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${base}/readyz`).catch(() => undefined);
    const body = response && ((await response.json()) as { checks?: Record<string, string> });
    if (body?.checks?.store === 'ok') return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`the gateway knew no build within ${timeoutMs} ms; tern said:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What both `tern start` and `tern dev` must serve of the tiny site, through the gateway. */
async function expectTheTinySite(): Promise<void> {
  const home = await untilHome(180_000);
  await untilBuildKnown(30_000);
  expect(home).toContain('<title>Home | Tiny</title>');
  expect(home).toContain('Hello from a tiny site');
  expect(await (await fetch(`http://127.0.0.1:${base}/about`)).text()).toContain('About the tiny site');
  const redirect = await fetch(`http://127.0.0.1:${base}/hello`, { redirect: 'manual' });
  expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/about']);
  expect(await (await fetch(`http://127.0.0.1:${base}/api/greeting`)).json()).toEqual({ greeting: 'Hello from a tiny site' });
  const missing = await fetch(`http://127.0.0.1:${base}/no-such-page`, {
    headers: { accept: 'text/html', 'user-agent': PERSON_USER_AGENT },
  });
  expect(missing.status).toBe(404);
  const page = await missing.text();
  expect(page).toContain('data-tiny-error="404"');
  expect(page).toContain('data-layout="tiny"');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tern-site-outside-'));
  if (!relative(projectRoot, work).startsWith('..')) throw new Error(`${work} is inside the checkout`);
  const tarballDir = join(work, 'tarballs');
  siteDir = join(work, 'tiny');
  await mkdir(tarballDir);
  const tarballs = await packAll(tarballDir);
  await makeSite(siteDir);
  await writeManifest(tarballs);
  await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: siteDir, maxBuffer: 64 * 1024 * 1024 });
  base = await findFreeBasePort();
}, 600_000);

afterAll(async () => {
  await stop(running);
  await rm(work, { recursive: true, force: true });
}, 60_000);

describe('a site outside the repository, on the installed packages', () => {
  it('has the platform from its own node_modules, not from the checkout', async () => {
    for (const name of SITE_PACKAGES) {
      const installed = await realpath(join(siteDir, 'node_modules', ...name.split('/')));
      expect(relative(projectRoot, installed).startsWith('..'), `${name} at ${installed}`).toBe(true);
    }
  });

  it('builds with `tern build`', async () => {
    await tern(['build']);
    const site = JSON.parse(await readFile(join(siteDir, 'dist', 'ssr', 'site.json'), 'utf8')) as Record<string, unknown>;
    expect(site).toMatchObject({ name: 'Tiny' });
  }, 600_000);

  it('serves its pages, rule, server route and own error page with `tern start`', async () => {
    running = startTern('start');
    await expectTheTinySite();
    await stop(running);
    await expectStopped();
  }, 300_000);

  it('serves the same with `tern dev`', async () => {
    running = startTern('dev');
    await expectTheTinySite();
    await stop(running);
    await expectStopped();
  }, 300_000);
});
