import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDataDir, projectRoot } from '@tern/shared/config/paths';
import { legacyUsersFile, usersFileOf } from './config.js';
import { parseCookbookConfig } from '../config.js';
import { insideBuildOutput, legacyMoveMessage, moveLegacyUsersFile } from '../users/move-legacy-file.js';

const dir = await mkdtemp(join(tmpdir(), 'data-dir-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const gone = (path: string) =>
  stat(path).then(
    () => false,
    () => true,
  );

describe('DATA_DIR and the users file', () => {
  it('keeps the users file in .data/ of the project by default, outside the build output', () => {
    const config = parseCookbookConfig({});
    expect(config.DATA_DIR).toBe(join(projectRoot, '.data'));
    expect(usersFileOf(config)).toBe(join(defaultDataDir, 'users.json'));
    expect(usersFileOf(config).startsWith(join(projectRoot, 'dist'))).toBe(false);
    expect(legacyUsersFile).toBe(join(projectRoot, 'dist', 'users', 'users.json'));
  });

  it('follows DATA_DIR, and USERS_FILE when that is set', () => {
    expect(usersFileOf(parseCookbookConfig({ DATA_DIR: '/data' }))).toBe('/data/users.json');
    expect(usersFileOf(parseCookbookConfig({ DATA_DIR: '/data', USERS_FILE: '/elsewhere/u.json' }))).toBe('/elsewhere/u.json');
  });

  it('moves an old users file to its new place once, and never over a file that is there', async () => {
    const from = join(dir, 'dist', 'users', 'users.json');
    const to = join(dir, '.data', 'users.json');
    await mkdir(join(dir, 'dist', 'users'), { recursive: true });
    await writeFile(from, '{"version":1,"users":[],"saved":{}}');
    const move = await moveLegacyUsersFile(from, to);
    expect(move).toEqual({ moved: true, from, to });
    expect(legacyMoveMessage(move)).toBe(`moved the users file from ${from} to ${to} (the build output is no place for accounts)`);
    expect(await readFile(to, 'utf8')).toContain('"version":1');
    expect(await gone(from)).toBe(true);

    expect(await moveLegacyUsersFile(from, to)).toMatchObject({ moved: false, reason: 'none' });
    expect(legacyMoveMessage(await moveLegacyUsersFile(from, to))).toBeNull();

    await writeFile(from, 'older');
    const both = await moveLegacyUsersFile(from, to);
    expect(both).toMatchObject({ moved: false, reason: 'both-exist' });
    expect(legacyMoveMessage(both)).toContain('npm run users -- import');
    expect(await readFile(to, 'utf8')).toContain('"version":1');
    expect(await readFile(from, 'utf8')).toBe('older');

    expect(await moveLegacyUsersFile(to, to)).toMatchObject({ moved: false, reason: 'same-file' });
  });

  it('knows a users file inside the build output', () => {
    expect(insideBuildOutput(legacyUsersFile)).toBe(true);
    expect(insideBuildOutput(join(defaultDataDir, 'users.json'))).toBe(false);
    expect(insideBuildOutput(join(projectRoot, 'dist-old', 'users.json'))).toBe(false);
  });
});
