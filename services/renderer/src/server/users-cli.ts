/**
 * `npm run users -- add <email> <name>`: creates a user in the store the renderer uses (Redis when
 * REDIS_URL is set, the USERS_FILE otherwise). The password is asked on the terminal without
 * echo, or read from the first line of stdin when it is piped.
 */
import { Redis } from 'ioredis';
import { resilientRedisOptions } from '../../../../lib/redis.js';
import { z } from 'zod';
import { parseConfig } from '../../../../lib/config.js';
import { accountsConfigShape } from './auth/config.js';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth/limits.js';
import { rendererConfigShape } from './config.js';
import { createUserStore, UserExistsError } from './users/index.js';
import { readPassword } from './users/read-password.js';

const USAGE = 'usage: npm run users -- add <email> <name>   (the password is asked for, or read from stdin)';

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
  const config = parseConfig({
    REDIS_URL: rendererConfigShape.REDIS_URL,
    REDIS_PREFIX: rendererConfigShape.REDIS_PREFIX,
    USERS_FILE: accountsConfigShape.USERS_FILE,
  });
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { ...resilientRedisOptions, enableOfflineQueue: true }) : undefined;
  const users = createUserStore({ redis, prefix: config.REDIS_PREFIX, file: config.USERS_FILE });
  try {
    const user = await users.add(parsed.data);
    const where = redis ? `Redis (prefix ${config.REDIS_PREFIX})` : config.USERS_FILE;
    process.stdout.write(`added ${user.email} (${user.name}, id ${user.id}) to ${where}\n`);
  } catch (error) {
    if (error instanceof UserExistsError) fail(error.message);
    throw error;
  } finally {
    await users.close();
    redis?.disconnect();
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command !== 'add' || rest.length !== 2) fail(USAGE, 2);
try {
  await add(rest[0]!, rest[1]!);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
