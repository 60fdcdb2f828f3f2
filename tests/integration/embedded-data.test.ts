/**
 * Embedded mode keeps accounts outside the build output: `rm -rf dist && npm run build && npm start`
 * signs in the same users with the same saved recipes. Run in a copy of the project (its own
 * dist/ and .data/, its own workspace packages, the real node_modules), with `npm start`'s launcher,
 * so the checkout's own build and accounts are never touched; the rebuild is a fresh copy of this
 * checkout's dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDir, projectRoot } from '@tern/shared/config/paths';
import { findFreeBasePort } from '@tern/cli/ports';
import { waitForStack } from '@tern/cli/services';
import { createFileUserStore } from 'cookbook/server/users/file-user-store';
import { usersCli, Visitor } from './site-support.js';

const RECIPE = 'undo-last-commit';
/** The workspace folders: each package's code (compiled to its own dist/) finds its project above itself. */
const WORKSPACES = ['packages', 'services', 'apps'];

/**
 * node_modules of the copy: the checkout's packages by absolute links, and npm's relative links to
 * the workspace packages (@tern/*, cookbook) as they are, so they lead to the copy's own packages,
 * whose code then takes the copy for its project (its dist/, its .data/), not the checkout.
 */
async function linkModules(from: string, to: string, depth = 0): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from)) {
    const source = join(from, entry);
    if ((await lstat(source)).isSymbolicLink()) await symlink(await readlink(source), join(to, entry));
    else if (depth === 0 && entry.startsWith('@')) await linkModules(source, join(to, entry), 1);
    else await symlink(source, join(to, entry));
  }
}

async function copyProject(root: string): Promise<void> {
  await cp(join(projectRoot, 'package.json'), join(root, 'package.json'));
  for (const folder of WORKSPACES)
    await cp(join(projectRoot, folder), join(root, folder), { recursive: true, filter: (path) => basename(path) !== 'node_modules' });
  await linkModules(join(projectRoot, 'node_modules'), join(root, 'node_modules'));
}

describe('embedded accounts across a clean rebuild', () => {
  let root: string;
  let port: number;
  let launcher: { child: ChildProcess; output: string[] } | undefined;
  const env = () => ({
    ...process.env,
    PORT: String(port),
    REDIS_URL: '',
    USERS_FILE: '',
    DATA_DIR: '',
    NODE_ENV: 'production',
    LOG_FORMAT: 'json',
  });

  /** `npm run build` in the copy: this checkout's build output, copied fresh. */
  const build = () => cp(buildDir, join(root, 'dist'), { recursive: true });

  /** `npm start` in the copy (the launcher: four services, restarted if they crash). */
  async function start(): Promise<string[]> {
    const child = spawn(process.execPath, [join(root, 'packages', 'cli', 'dist', 'launch.js')], {
      cwd: root,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n')));
    launcher = { child, output };
    await waitForStack(port, 60_000);
    return output;
  }

  async function stop(): Promise<void> {
    const running = launcher;
    launcher = undefined;
    if (!running || running.child.exitCode !== null) return;
    const exited = new Promise((resolve) => running.child.once('exit', resolve));
    running.child.kill('SIGTERM');
    await exited;
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'embedded-data-'));
    await copyProject(root);
    port = await findFreeBasePort();
    await build();
    // The copy is some 35 MB of files: room for a busy machine.
  }, 60_000);
  afterAll(async () => {
    await stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('moves an old dist/users/users.json to .data/ at start, with one line', async () => {
    // Accounts kept where the old default put them, inside the build output.
    const legacy = join(root, 'dist', 'users', 'users.json');
    await mkdir(join(root, 'dist', 'users'), { recursive: true });
    await createFileUserStore({ file: legacy, cost: { N: 1024, r: 8, p: 1 } }).add({
      email: 'old@cookbook.test',
      name: 'Old Cook',
      password: 'from before',
    });

    const output = await start();
    const moved = output.filter((line) => line.includes('moved the users file'));
    expect(moved).toHaveLength(1);
    expect(moved[0]).toContain(`from ${legacy} to ${join(root, '.data', 'users.json')}`);
    await expect(stat(legacy)).rejects.toThrow(/ENOENT/);
    expect((await new Visitor(`http://127.0.0.1:${port}`).login('old@cookbook.test', 'from before')).status).toBe(200);
  });

  it('signs in the same users with the same saved recipes after rm -rf dist and a rebuild', async () => {
    const site = `http://127.0.0.1:${port}`;
    // A user added with `npm run users` of the copy (its default store: .data/users.json), who saves a recipe.
    const cliEnv = { REDIS_URL: '', USERS_FILE: join(root, '.data', 'users.json') };
    const added = await usersCli(cliEnv, ['add', 'new@cookbook.test', 'New Cook'], 'a new password\n');
    expect(added.code, added.stderr).toBe(0);
    const cook = new Visitor(site);
    expect((await cook.login('new@cookbook.test', 'a new password')).status).toBe(200);
    expect((await cook.fetch(`/api/saved/${RECIPE}`, { method: 'POST' })).status).toBe(201);
    await stop();

    await rm(join(root, 'dist'), { recursive: true, force: true });
    await build();
    const output = await start();

    expect(output.some((line) => line.includes('moved the users file'))).toBe(false);
    const again = new Visitor(site);
    expect((await again.login('new@cookbook.test', 'a new password')).status).toBe(200);
    expect((await (await again.fetch('/api/saved')).json()).recipes.map((r: { id: string }) => r.id)).toEqual([RECIPE]);
    expect((await new Visitor(site).login('old@cookbook.test', 'from before')).status).toBe(200);
    const file = JSON.parse(await readFile(join(root, '.data', 'users.json'), 'utf8')) as { users: Array<{ email: string }> };
    expect(file.users.map((u) => u.email).sort()).toEqual(['demo@cookbook.test', 'new@cookbook.test', 'old@cookbook.test']);
  });
});
