/**
 * `npm run dev` in a temporary copy of the project, driven in Chromium: a page component edit,
 * a CSS edit and a recipe's Markdown edit each show in the open page without a full reload
 * (the component's state kept), and a syntax error shows Vite's overlay until it is fixed. It prints
 * the time from `npm run dev` to the first page and from each save to the update.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { findFreeBasePort } from '@tern/cli/ports';
import { waitForStack } from '@tern/cli/services';
import { launchChromium, PERSON_USER_AGENT } from '../support/chromium.js';
import { gotoHydrated } from './site-browser.js';

const COPIED = ['packages', 'services', 'apps', 'bench', 'package.json', 'tsconfig.json'];

/**
 * The copy's node_modules: the project's installed packages, each linked, and the workspace's own
 * packages (and the `tern` bin) linked to the copy's folders, as `npm ci` would link them there.
 */
function linkNodeModules(copy: string): void {
  const installed = join(projectRoot, 'node_modules');
  const own = join(copy, 'node_modules');
  mkdirSync(join(own, '.bin'), { recursive: true });
  const { workspaces } = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { workspaces: string[] };
  const names = new Map(workspaces.map((dir) => [(JSON.parse(readFileSync(join(copy, dir, 'package.json'), 'utf8')) as { name: string }).name, dir]));
  const scopes = new Set([...names.keys()].filter((name) => name.startsWith('@')).map((name) => name.split('/')[0] ?? name));
  for (const entry of readdirSync(installed)) {
    if (entry === '.bin' || names.has(entry) || scopes.has(entry)) continue;
    symlinkSync(join(installed, entry), join(own, entry));
  }
  for (const scope of scopes) {
    mkdirSync(join(own, scope));
    for (const entry of readdirSync(join(installed, scope)))
      if (!names.has(`${scope}/${entry}`)) symlinkSync(join(installed, scope, entry), join(own, scope, entry));
  }
  for (const [name, dir] of names) symlinkSync(join(copy, dir), join(own, name));
  for (const bin of readdirSync(join(installed, '.bin'))) {
    const target = realpathSync(join(installed, '.bin', bin));
    symlinkSync(target.startsWith(`${projectRoot}/`) && !target.includes('/node_modules/') ? join(copy, target.slice(projectRoot.length + 1)) : target, join(own, '.bin', bin));
  }
}
// A generous wait, not a timing assertion: the time from save to update is printed (and goes in
// the issue note); a loaded CI machine must not fail a correct dev loop.
const UPDATE_TIMEOUT_MS = 30_000;

let dir: string;
let dev: ChildProcess;
let browser: Browser;
let page: Page;
let base: string;
const output: string[] = [];

let editedAt = 0;
function edit(file: string, change: (text: string) => string): void {
  const path = join(dir, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
  editedAt = Date.now();
}
const reportUpdate = (what: string) => console.info(`dev loop: ${what} shown ${Date.now() - editedAt} ms after the save`);

/** Set once per full load; still there after an update means no reload happened. */
async function markPage(): Promise<void> {
  await page.evaluate(() => Object.assign(window, { __devLoopMark: true }));
}
const stillMarked = () => page.evaluate(() => (window as { __devLoopMark?: boolean }).__devLoopMark === true);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dev-loop-'));
  for (const entry of COPIED) cpSync(join(projectRoot, entry), join(dir, entry), { recursive: true });
  linkNodeModules(dir);
  const port = await findFreeBasePort(4);
  base = `http://127.0.0.1:${port}`;
  dev = spawn('npm', ['run', 'dev'], { cwd: dir, env: { ...process.env, PORT: String(port), REDIS_URL: '' }, detached: true });
  for (const stream of [dev.stdout!, dev.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const started = Date.now();
  await waitForStack(port, 90_000).catch((error: unknown) => {
    throw new Error(`npm run dev did not get ready:\n${output.join('').slice(-3000)}`, { cause: error });
  });
  const ready = await fetch(`${base}/`).then((response) => response.status);
  console.info(`dev loop: npm run dev to first page (status ${ready}) in ${Date.now() - started} ms`);
  browser = await launchChromium();
  page = await browser.newPage({ userAgent: PERSON_USER_AGENT });
  // Warm up: Vite optimises the dependencies the first pages import and may reload the page
  // once when it finds new ones; that must happen before an edit, not during one.
  for (const path of ['/', '/login', '/category/git', '/login']) await gotoHydrated(page, `${base}${path}`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  // The launcher and its children form one process group.
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('applies a page component edit in place, keeping the form state', async () => {
    await gotoHydrated(page, `${base}/login`);
    await markPage();
    await page.fill('input[type=email]', 'kept@example.com');
    edit('apps/cookbook/src/app/pages/login.tsx', (text) => text.replace('>Sign in</h1>', '>Sign in here</h1>'));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Sign in here', null, { timeout: UPDATE_TIMEOUT_MS });
    reportUpdate('component edit');
    expect(await page.inputValue('input[type=email]')).toBe('kept@example.com');
    expect(await stillMarked()).toBe(true);
  });

  it('applies a CSS edit without a reload', async () => {
    edit('apps/cookbook/src/app/styles/site.css', (text) => `${text}\nmain[data-page='login'] { outline: 3px solid rgb(1, 2, 3); }\n`);
    await page.waitForFunction(() => getComputedStyle(document.querySelector('main')!).outlineColor === 'rgb(1, 2, 3)', null, {
      timeout: UPDATE_TIMEOUT_MS,
    });
    reportUpdate('CSS edit');
    expect(await stillMarked()).toBe(true);
  });

  it("shows a recipe's Markdown edit in the open page without a reload", async () => {
    await gotoHydrated(page, `${base}/category/git`);
    await markPage();
    edit('apps/cookbook/content/recipes/git/undo-last-commit.md', (text) => text.replace(/^title: .*$/m, 'title: Undo the last commit, edited live'));
    await page.waitForFunction(() => document.body.textContent?.includes('Undo the last commit, edited live'), null, {
      timeout: UPDATE_TIMEOUT_MS,
    });
    reportUpdate('Markdown edit');
    expect(await stillMarked()).toBe(true);
  });

  it('shows a syntax error in the overlay and recovers when it is fixed', async () => {
    await gotoHydrated(page, `${base}/login`);
    await markPage();
    const file = 'apps/cookbook/src/app/pages/login.tsx';
    const good = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, file), good.replace('export const layout = false;', 'export const layout = ;'));
    await page.waitForSelector('vite-error-overlay', { timeout: UPDATE_TIMEOUT_MS * 2 });
    expect(await page.evaluate(() => document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? '')).toContain('login.tsx');
    writeFileSync(join(dir, file), good.replace('>Sign in here</h1>', '>Sign in again</h1>'));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Sign in again', null, {
      timeout: UPDATE_TIMEOUT_MS * 2,
    });
    expect(await page.$('vite-error-overlay')).toBeNull();
  });
});
