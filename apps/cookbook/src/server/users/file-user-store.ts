/**
 * Users in one JSON file (the embedded mode), shared by the server and `npm run users`: every read
 * notices when the other wrote it, every write goes through a temporary file and a rename.
 */
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkPassword, newUserRecord, publicUser } from './credentials.js';
import type { ScryptCost } from './password.js';
import { normalizeEmail, UserExistsError, type UsersDump, type UserStore } from './types.js';

/** The file is a dump: `npm run users -- export` of the file store is the file itself. */
type UsersFile = UsersDump;

export interface FileUserStoreOptions {
  file: string;
  cost?: ScryptCost;
}

const empty = (): UsersFile => ({ version: 1, users: [], saved: {} });

/** The file's size and mtime; 'missing' when it cannot be read (as before: the store starts empty). */
function stampOf(file: string): string {
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats ? `${stats.size}:${stats.mtimeMs}` : 'missing';
  } catch {
    return 'missing';
  }
}

export function createFileUserStore(options: FileUserStoreOptions): UserStore {
  const { file, cost } = options;
  let data = empty();
  let seen = '';
  let queue: Promise<unknown> = Promise.resolve();

  /**
   * Re-reads the file when its size or mtime moved since we last saw it. The check is a
   * synchronous stat: one system call on a local file, where the promise's trip through the
   * thread pool cost a signed-in page (two look-ups: the session's user, their saved list) a
   * third of the renderer's CPU under load (docs/decisions/personal-holes.md).
   */
  async function load(): Promise<UsersFile> {
    const stamp = stampOf(file);
    if (stamp === seen) return data;
    data = stamp === 'missing' ? empty() : parseUsersFile(await readFile(file, 'utf8'), file);
    seen = stamp;
    return data;
  }

  /** Writes are serialised in this process; each starts from the newest file. */
  function change<T>(edit: (current: UsersFile) => T | Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      const current = await load();
      const result = await edit(current);
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, file);
      seen = '';
      return result;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  const byEmail = async (email: string) => (await load()).users.find((u) => u.email === normalizeEmail(email));

  return {
    kind: 'file',
    async add(input) {
      const record = await newUserRecord(input, cost);
      return change((current) => {
        if (current.users.some((u) => u.email === record.email)) throw new UserExistsError(record.email);
        current.users.push(record);
        return publicUser(record);
      });
    },
    async verify(email, password) {
      return checkPassword(await byEmail(email), password, cost);
    },
    async get(id) {
      const record = (await load()).users.find((u) => u.id === id);
      return record ? publicUser(record) : null;
    },
    async findByEmail(email) {
      const record = await byEmail(email);
      return record ? publicUser(record) : null;
    },
    async saved(userId) {
      return ((await load()).saved[userId] ?? []).map((entry) => entry.recipeId);
    },
    save(userId, recipeId) {
      return change((current) => {
        const list = current.saved[userId] ?? [];
        if (list.some((entry) => entry.recipeId === recipeId)) return false;
        current.saved[userId] = [{ recipeId, savedAt: Date.now() }, ...list];
        return true;
      });
    },
    unsave(userId, recipeId) {
      return change((current) => {
        const list = current.saved[userId] ?? [];
        const kept = list.filter((entry) => entry.recipeId !== recipeId);
        current.saved[userId] = kept;
        return kept.length !== list.length;
      });
    },
    remove(userId) {
      return change((current) => {
        const before = current.users.length;
        current.users = current.users.filter((u) => u.id !== userId);
        delete current.saved[userId];
        return current.users.length !== before;
      });
    },
    async dump() {
      return structuredClone(await load());
    },
    restore(dump) {
      return change((current) => {
        const result = { added: [] as string[], skipped: [] as string[] };
        for (const record of dump.users) {
          if (current.users.some((u) => u.email === record.email || u.id === record.id)) {
            result.skipped.push(record.email);
            continue;
          }
          current.users.push({ ...record });
          const saved = dump.saved[record.id];
          if (saved?.length) current.saved[record.id] = saved.map((entry) => ({ ...entry }));
          result.added.push(record.email);
        }
        return result;
      });
    },
    async ping() {
      return load().then(
        () => true,
        () => false,
      );
    },
    async close() {
      await queue;
    },
  };
}

function parseUsersFile(text: string, file: string): UsersFile {
  let value: Partial<UsersFile>;
  try {
    value = JSON.parse(text) as Partial<UsersFile>;
  } catch (error) {
    throw new Error(`users file ${file} is not valid JSON`, { cause: error });
  }
  if (value.version !== 1 || !Array.isArray(value.users) || typeof value.saved !== 'object' || value.saved === null) {
    throw new Error(`users file ${file} is not a version 1 users file`);
  }
  return value as UsersFile;
}
