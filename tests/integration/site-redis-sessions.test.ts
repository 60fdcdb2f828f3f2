import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis.js';
import { startStack, type Stack } from '../support/stack.js';
import { addUser, DEMO, Visitor } from './site-support.js';

const available = await redisAvailable();
let stack: Stack;

describe.runIf(available)('accounts in Redis', () => {
  beforeAll(async () => {
    stack = await startStack({ redis: true });
  });
  afterAll(() => stack?.stop());

  const user = { email: 'redis-cook@cookbook.test', name: 'Redis Cook', password: 'kept in redis' };

  it('has no demo account when Redis holds the users', async () => {
    expect(stack.logs('renderer').some((line) => line.includes('demo account'))).toBe(false);
    expect((await new Visitor(stack.url).login(DEMO.email, DEMO.password)).status).toBe(401);
  });

  it('keeps sessions and saved recipes across a renderer restart', async () => {
    const added = await addUser({ REDIS_URL: stack.redisUrl!, REDIS_PREFIX: stack.redisPrefix! }, user.email, user.name, user.password);
    expect(added.code, added.out).toBe(0);
    const visitor = new Visitor(stack.url);
    expect((await visitor.login(user.email, user.password)).status).toBe(200);
    expect((await visitor.fetch('/api/saved/undo-last-commit', { method: 'POST' })).status).toBe(201);

    expect(await stack.stopService('renderer')).toBe(0);
    await stack.startService('renderer');

    const session = await (await visitor.fetch('/api/auth/session')).json();
    expect(session.user).toMatchObject({ email: user.email, name: user.name });
    const home = await visitor.html('/');
    expect(home).toContain('Redis Cook');
    expect(home).toMatch(/aria-label="Your saved recipes"[\s\S]*href="\/recipes\/undo-last-commit"/);
  });

  it('counts failed logins in Redis, so a restart does not reset the limit', async () => {
    const visitor = new Visitor(stack.url);
    for (let i = 0; i < 5; i++) expect((await visitor.login(user.email, `wrong-${i}`)).status).toBe(401);
    await stack.stopService('renderer');
    await stack.startService('renderer');
    const blocked = await visitor.login(user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
