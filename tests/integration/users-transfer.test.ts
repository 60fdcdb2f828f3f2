/**
 * `npm run users -- export` and `import`: accounts with their password hashes and saved recipes
 * move from a users file to Redis and back (one box to many, and back), never shown on a terminal.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../support/redis.js';
import { createFileUserStore } from 'cookbook/server/users/file-user-store';
import { createRedisUserStore } from 'cookbook/server/users/redis-user-store';
import { addUser, usersCli } from './site-support.js';

const available = await redisAvailable();
const prefix = `test:${randomUUID()}:`;
const cli = join(projectRoot, 'apps', 'cookbook', 'dist', 'server', 'users-cli.js');
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.runIf(available)('moving accounts between the users file and Redis', () => {
  let dir: string;
  let redis: Redis;
  const fileEnv = (file: string) => ({ REDIS_URL: '', USERS_FILE: file });
  const redisEnv = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'users-transfer-'));
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await deleteKeys(TEST_REDIS_URL, prefix);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports the users file with hashes and saved recipes, and imports it into Redis, where they sign in', async () => {
    const file = join(dir, 'users.json');
    for (const [email, name] of [
      ['ada@cookbook.test', 'Ada'],
      ['bob@cookbook.test', 'Bob'],
    ]) {
      const added = await addUser(fileEnv(file), email!, name!, `${name} password words`);
      expect(added.code, added.out).toBe(0);
    }
    const fileStore = createFileUserStore({ file });
    const ada = (await fileStore.findByEmail('ada@cookbook.test'))!;
    await fileStore.save(ada.id, 'undo-last-commit');

    // To stdout when it is a pipe; the count on stderr.
    const piped = await usersCli(fileEnv(file), ['export']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe(`exported 2 users and 1 saved recipes from ${file}\n`);
    expect(piped.stdout).toContain('"passwordHash": "scrypt$');
    expect(piped.stdout).not.toContain('Ada password words');

    // To a file of the owner only.
    const dump = join(dir, 'dump.json');
    const exported = await usersCli(fileEnv(file), ['export', dump]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe('');
    expect((await stat(dump)).mode & 0o777).toBe(0o600);

    const imported = await usersCli(redisEnv, ['import', dump]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(`imported 2 users into Redis (prefix ${prefix})\n`);
    const redisStore = createRedisUserStore({ redis, prefix });
    expect(await redisStore.verify('ada@cookbook.test', 'Ada password words')).toEqual(ada);
    expect(await redisStore.verify('bob@cookbook.test', 'Bob password words')).toMatchObject({ name: 'Bob' });
    expect(await redisStore.saved(ada.id)).toEqual(['undo-last-commit']);

    // Again: nobody is added twice or replaced.
    const again = await usersCli(redisEnv, ['import', dump]);
    expect(again.stdout).toBe(
      `imported 0 users into Redis (prefix ${prefix})\nskipped 2 already there (same email or id): ada@cookbook.test, bob@cookbook.test\n`,
    );
  });

  it('exports Redis through a pipe into a new users file, where they sign in with their saved recipes', async () => {
    const added = await addUser(redisEnv, 'carol@cookbook.test', 'Carol', 'carol password words');
    expect(added.code, added.out).toBe(0);
    const redisStore = createRedisUserStore({ redis, prefix });
    const carol = (await redisStore.findByEmail('carol@cookbook.test'))!;
    await redisStore.save(carol.id, 'compose-healthchecks');

    const exported = await usersCli(redisEnv, ['export']);
    expect(exported.code, exported.stderr).toBe(0);
    const file = join(dir, 'back.json');
    const imported = await usersCli(fileEnv(file), ['import'], exported.stdout);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(`imported 3 users into ${file}\n`);

    const fileStore = createFileUserStore({ file });
    expect(await fileStore.verify('carol@cookbook.test', 'carol password words')).toEqual(carol);
    expect(await fileStore.verify('ada@cookbook.test', 'Ada password words')).toMatchObject({ email: 'ada@cookbook.test' });
    expect(await fileStore.saved(carol.id)).toEqual(['compose-healthchecks']);
  });

  it('refuses a file that is not an export, and adds nobody', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({ version: 1, users: [{ id: 'x', email: 'x@cookbook.test', name: 'X', createdAt: 'now', passwordHash: 'plain' }] }),
    );
    const target = join(dir, 'untouched.json');
    const refused = await usersCli(fileEnv(target), ['import', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`users: ${bad} is not a users export: users.0.passwordHash: expected a scrypt password hash\n`);
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it.runIf(hasScript)('never prints the export on a terminal', () => {
    const file = join(dir, 'users.json');
    // `script` gives the command a terminal for stdout, as a person typing it would have.
    const shown = spawnSync('script', ['-qec', `${process.execPath} ${cli} export`, '/dev/null'], {
      env: { ...process.env, ...fileEnv(file) },
      encoding: 'utf8',
    });
    expect(shown.status).toBe(2);
    expect(shown.stdout).toContain('users: the export holds password hashes: give a file (export users.json) or redirect stdout');
    expect(shown.stdout).not.toContain('scrypt$');
  });
});
