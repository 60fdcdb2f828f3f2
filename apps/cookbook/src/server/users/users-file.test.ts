import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileUserStore } from './file-user-store.js';
import { describeUserStore } from './user-store.contract.js';

const dir = await mkdtemp(join(tmpdir(), 'users-'));
const cost = { N: 1024, r: 8, p: 1 };
afterAll(() => rm(dir, { recursive: true, force: true }));

describeUserStore('file', async (scope) => createFileUserStore({ file: join(dir, scope, 'users.json'), cost }));

describe('file user store', () => {
  it('keeps only a salted scrypt hash in the file, never the password', async () => {
    const file = join(dir, 'hash', 'users.json');
    const store = createFileUserStore({ file, cost });
    await store.add({ email: 'x@example.com', name: 'X', password: 'plain secret words' });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('plain secret words');
    expect(text).toMatch(/"passwordHash": "scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}"/);
  });

  it('names the file when it is not a users file', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, '{"users": 3}');
    const store = createFileUserStore({ file, cost });
    await expect(store.get('x')).rejects.toThrow(`users file ${file} is not a version 1 users file`);
    expect(await store.ping()).toBe(false);
  });
});
