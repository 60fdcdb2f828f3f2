/**
 * Starts the whole stack for an integration suite: local processes by default, or the
 * docker-compose.yml services through Testcontainers with `mode: 'containers'`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startContainerStack } from './container-stack.js';
import { startLocalStack } from '@tern/cli/local-stack';
import type { Stack, StackOptions } from '@tern/cli/stack-types';

export { containerRuntimeReason } from './container-stack.js';
export type { ServiceName, Stack, StackOptions } from '@tern/cli/stack-types';

/**
 * A signed-in visitor's personal parts get 3 s here, not the 50 ms of production: the suites run
 * on a busy machine, where a late answer would leave the anonymous state at random. The suite of
 * the fallback itself sets its own budget.
 */
const TEST_ENV = { PERSONAL_PARTS_BUDGET_MS: '3000' };

export function startStack(options: StackOptions & { mode?: 'local' | 'containers' } = {}): Promise<Stack> {
  const withEnv = { ...options, env: { ...TEST_ENV, ...options.env } };
  return options.mode === 'containers' ? startContainerStack(withEnv) : startLocalStack(withEnv);
}

/**
 * The stack for one test file, started before its tests and stopped after them (as
 * chromiumForFile does for the browser). `url` is its address; `running` the Stack itself, for the
 * few suites that publish builds or read logs. Its accounts live in a users file of its own, removed
 * after, so what a suite saves or signs up stays in it.
 */
export function stackForFile(options: StackOptions = {}): { readonly url: string; readonly running: Stack } {
  let stack: Stack | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stack-users-'));
    stack = await startStack({ ...options, env: { USERS_FILE: join(dir, 'users.json'), ...options.env } });
  });
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const running = (): Stack => {
    if (!stack) throw new Error('stackForFile: the stack is not running (used outside a test?)');
    return stack;
  };
  return {
    get url() {
      return running().url;
    },
    get running() {
      return running();
    },
  };
}
