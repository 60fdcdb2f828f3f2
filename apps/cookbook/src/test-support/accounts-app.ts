/** A small Fastify app with only the accounts' routes, over the sample content, for app.inject tests. */
import { trustTheGateway } from '@tern/site/server';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { createService } from '@tern/shared/http/service';
import { createContentRepository } from '../content/repository.js';
import { createAccounts, registerAccounts, type Accounts } from '../server/accounts.js';
import type { AccountsConfig } from '../server/auth/config.js';
import { sample } from './content-sample.js';

export interface AccountsApp {
  app: FastifyInstance;
  accounts: Accounts;
  logs: string[];
  close(): Promise<void>;
}

export const ORIGIN = 'http://localhost:80';

/** scrypt at a 32nd of the production cost: the same code path, milliseconds instead of ~100 ms a check. */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 };

export async function startAccountsApp(config: Partial<AccountsConfig> = {}, now?: () => number): Promise<AccountsApp> {
  const dir = await mkdtemp(join(tmpdir(), 'accounts-'));
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const app = createService({ name: 'renderer', logger, production: true, trustProxy: trustTheGateway });
  const accounts = await createAccounts({
    config: { REDIS_PREFIX: 'unused:', SESSION_TTL_SECONDS: 3600, USERS_FILE: join(dir, 'users.json'), DEMO_ACCOUNT: true, ...config },
    repository: createContentRepository(sample),
    logger,
    passwordCost: TEST_PASSWORD_COST,
    now,
  });
  await registerAccounts(app, accounts);
  await app.ready();
  return {
    app,
    accounts,
    logs,
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The session cookie a response set, as `name=value` for the next request. */
export function cookieOf(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('cookbook_session='));
  if (!header) throw new Error('no session cookie was set');
  return header.split(';')[0]!;
}

export function login(app: FastifyInstance, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN, ...headers }, payload: body as object });
}
