/** DEMO_ACCOUNT=false after a start with the default: the file store's demo account is gone, with one line. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from './demo-account.js';
import { createFileUserStore } from '../users/file-user-store.js';
import { login, startAccountsApp, TEST_PASSWORD_COST } from '../../test-support/accounts-app.js';

const dir = await mkdtemp(join(tmpdir(), 'demo-account-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const demo = { email: DEMO_EMAIL, password: DEMO_PASSWORD };
const removedLines = (logs: string[]) => logs.filter((line) => line.includes('demo account removed'));

/** One start of the accounts on `file`: what signing in as the demo answers, and the log. */
async function startOnce(file: string, demoAccount: boolean): Promise<{ status: number; logs: string[] }> {
  const t = await startAccountsApp({ USERS_FILE: file, DEMO_ACCOUNT: demoAccount });
  try {
    return { status: (await login(t.app, demo)).statusCode, logs: t.logs };
  } finally {
    await t.close();
  }
}

describe('DEMO_ACCOUNT=false with the file store', () => {
  it('removes the demo account a start with the default made, with one log line, and keeps everyone else', async () => {
    const file = join(dir, 'default-then-off', 'users.json');
    const first = await startOnce(file, true);
    expect(first.status).toBe(200);
    const store = createFileUserStore({ file, cost: TEST_PASSWORD_COST });
    await store.add({ email: 'cook@example.com', name: 'Cook', password: 'a real password' });

    const second = await startOnce(file, false);
    expect(second.status).toBe(401);
    expect(removedLines(second.logs)).toHaveLength(1);
    expect(JSON.parse(removedLines(second.logs)[0]!)).toMatchObject({ level: 30, users: 'file', email: DEMO_EMAIL });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(DEMO_EMAIL);
    expect(await store.verify('cook@example.com', 'a real password')).not.toBeNull();

    // Nothing left to remove: the next start says nothing about it.
    const third = await startOnce(file, false);
    expect(third.status).toBe(401);
    expect(removedLines(third.logs)).toEqual([]);
  });

  it('keeps an account of the demo email whose password is not the published one', async () => {
    const file = join(dir, 'own-password', 'users.json');
    const store = createFileUserStore({ file, cost: TEST_PASSWORD_COST });
    await store.add({ email: DEMO_EMAIL, name: 'Someone', password: 'not the demo one' });
    const start = await startOnce(file, false);
    expect(removedLines(start.logs)).toEqual([]);
    expect(await store.verify(DEMO_EMAIL, 'not the demo one')).not.toBeNull();
  });
});
