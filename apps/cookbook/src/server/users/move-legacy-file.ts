/**
 * Before DATA_DIR the users file defaulted to dist/users/users.json, inside the build output, where
 * `rm -rf dist`, `git clean -fdx` or a fresh image deletes every account. At start (and before
 * `npm run users` touches the store) a file found there is moved to the users file's place.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { buildDir } from '@tern/shared/config/paths';

export type LegacyMove =
  { moved: true; from: string; to: string } | { moved: false; reason: 'none' | 'same-file' | 'both-exist'; from: string; to: string };

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Moves `from` to `to` when `from` exists and `to` does not; never overwrites, never merges. */
export async function moveLegacyUsersFile(from: string, to: string): Promise<LegacyMove> {
  if (resolve(from) === resolve(to)) return { moved: false, reason: 'same-file', from, to };
  if (!(await exists(from))) return { moved: false, reason: 'none', from, to };
  if (await exists(to)) return { moved: false, reason: 'both-exist', from, to };
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    // Another filesystem (a mounted data volume): copy without overwriting, then remove the old one.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
    await unlink(from);
  }
  return { moved: true, from, to };
}

/** The one line to log about a move, or null when there is nothing to say. */
export function legacyMoveMessage(move: LegacyMove): string | null {
  if (move.moved) return `moved the users file from ${move.from} to ${move.to} (the build output is no place for accounts)`;
  if (move.reason === 'both-exist')
    return `an old users file is still at ${move.from}; ${move.to} is used and the old one is left alone (merge it with npm run users -- import)`;
  return null;
}

/** Whether a path is under dist/, which `rm -rf dist` and a fresh image take away. */
export function insideBuildOutput(path: string): boolean {
  const inside = relative(buildDir, resolve(path));
  return inside !== '' && !inside.startsWith('..') && !inside.startsWith('/');
}
