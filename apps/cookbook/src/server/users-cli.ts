/**
 * `npm run users -- add <email> <name>`: creates a user in the store the renderer uses (Redis when
 * REDIS_URL is set, the users file in DATA_DIR otherwise). The password is asked on the terminal
 * without echo, or read from the first line of stdin when it is piped.
 *
 * `npm run users -- export [file]` and `import [file]`: every account with its password hash and
 * saved recipes as JSON, from either store into either store (a users file to Redis and back). The
 * export holds hashes, so it goes to a file or a pipe, never to a terminal.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { openRedis } from '@tern/shared/redis/connection';
import { z } from 'zod';
import { parseConfig, redisFields } from '@tern/shared/config/service-config';
import { withSiteDefaults } from '@tern/shared/config/site-defaults';
import { accountsConfigShape, legacyUsersFile, usersFileOf } from './auth/config.js';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth/limits.js';
import { parseUsersDump } from './users/dump.js';
import { createUserStore, UserExistsError, type UserStore } from './users/index.js';
import { legacyMoveMessage, moveLegacyUsersFile } from './users/move-legacy-file.js';
import { readPassword } from './users/read-password.js';

const USAGE = [
  'usage: npm run users -- add <email> <name>   (the password is asked for, or read from stdin)',
  '       npm run users -- export [file]        (JSON with password hashes: to a file, or stdout when redirected)',
  '       npm run users -- import [file]        (a file from export, or a users file; stdin when omitted)',
].join('\n');

const newUserSchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_LENGTH).pipe(z.email('expected an email address such as name@example.com')),
  name: z.string().trim().min(1, 'expected a name').max(NAME_MAX_LENGTH, `expected at most ${NAME_MAX_LENGTH} characters`),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `expected at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `expected at most ${PASSWORD_MAX_LENGTH} characters`),
});

function fail(message: string, code = 1): never {
  process.stderr.write(`users: ${message}\n`);
  process.exit(code);
}

async function add(email: string, name: string): Promise<void> {
  const password = await readPassword('Password: ');
  if (process.stdin.isTTY && (await readPassword('Repeat the password: ')) !== password) fail('the passwords differ');
  const parsed = newUserSchema.safeParse({ email, name, password });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${String(issue.path[0])}: ${issue.message}`);
  }
  await withStore(async (users, where) => {
    try {
      const user = await users.add(parsed.data);
      process.stdout.write(`added ${user.email} (${user.name}, id ${user.id}) to ${where}\n`);
    } catch (error) {
      if (error instanceof UserExistsError) fail(error.message);
      throw error;
    }
  });
}

/** The store the renderer would use, opened for one command; the users file moved out of dist/ first. */
async function withStore(work: (users: UserStore, where: string) => Promise<void>): Promise<void> {
  const config = parseConfig(
    { ...redisFields(), DATA_DIR: accountsConfigShape.DATA_DIR, USERS_FILE: accountsConfigShape.USERS_FILE },
    withSiteDefaults(process.env),
  );
  const file = usersFileOf(config);
  if (!config.REDIS_URL && config.USERS_FILE === undefined) {
    const message = legacyMoveMessage(await moveLegacyUsersFile(legacyUsersFile, file));
    if (message) process.stderr.write(`users: ${message}\n`);
  }
  const redis = config.REDIS_URL ? openRedis(config.REDIS_URL, { options: { enableOfflineQueue: true } }) : undefined;
  const users = createUserStore({ redis, prefix: config.REDIS_PREFIX, file });
  try {
    await work(users, redis ? `Redis (prefix ${config.REDIS_PREFIX})` : file);
  } finally {
    await users.close();
    redis?.disconnect();
  }
}

async function exportUsers(file: string | undefined): Promise<void> {
  // Password hashes are secrets: never shown on a terminal (or kept in its scrollback).
  if (!file && process.stdout.isTTY) fail('the export holds password hashes: give a file (export users.json) or redirect stdout', 2);
  await withStore(async (users, where) => {
    const dump = await users.dump();
    const json = `${JSON.stringify(dump, null, 2)}\n`;
    if (file) await writeFile(file, json, { mode: 0o600 });
    else await new Promise<void>((resolve, reject) => process.stdout.write(json, (error) => (error ? reject(error) : resolve())));
    const saved = Object.values(dump.saved).reduce((sum, list) => sum + list.length, 0);
    process.stderr.write(`exported ${dump.users.length} users and ${saved} saved recipes from ${where}${file ? ` to ${file}` : ''}\n`);
  });
}

async function importUsers(file: string | undefined): Promise<void> {
  if ((!file || file === '-') && process.stdin.isTTY) fail('give the file to import (import users.json), or pipe it to stdin', 2);
  const source = file && file !== '-' ? file : 'stdin';
  const dump = parseUsersDump(source === 'stdin' ? await text(process.stdin) : await readFile(source, 'utf8'), source);
  await withStore(async (users, where) => {
    const { added, skipped } = await users.restore(dump);
    process.stdout.write(`imported ${added.length} users into ${where}\n`);
    if (skipped.length > 0) process.stdout.write(`skipped ${skipped.length} already there (same email or id): ${skipped.join(', ')}\n`);
  });
}

const [command, ...rest] = process.argv.slice(2);
const run: Record<string, { args: [number, number]; go: () => Promise<void> }> = {
  add: { args: [2, 2], go: () => add(rest[0]!, rest[1]!) },
  export: { args: [0, 1], go: () => exportUsers(rest[0]) },
  import: { args: [0, 1], go: () => importUsers(rest[0]) },
};
const chosen = command ? run[command] : undefined;
if (!chosen || rest.length < chosen.args[0] || rest.length > chosen.args[1]) fail(USAGE, 2);
try {
  await chosen.go();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
