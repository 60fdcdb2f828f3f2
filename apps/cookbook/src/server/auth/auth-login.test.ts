import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from './demo-account.js';
import { cookieOf, login, ORIGIN, startAccountsApp, type AccountsApp } from '../../test-support/accounts-app.js';

let t: AccountsApp;
beforeAll(async () => {
  t = await startAccountsApp();
});
afterAll(() => t.close());

const demo = { email: DEMO_EMAIL, password: DEMO_PASSWORD };
const session = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} });

describe('POST /api/auth/login', () => {
  it('signs the demo account in with an opaque HttpOnly, SameSite=Lax session cookie', async () => {
    const response = await login(t.app, demo);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: expect.any(String), email: DEMO_EMAIL, name: 'Demo Cook' },
      expiresAt: expect.any(String),
    });
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(/^cookbook_session=[\w-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(header).not.toContain(response.json().user.id);
    const answer = await session(cookieOf(response));
    expect(answer.json().user.email).toBe(DEMO_EMAIL);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('marks the cookie Secure when the visitor came over https', async () => {
    const response = await login(t.app, demo, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'cook.example',
      origin: 'https://cook.example',
    });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).toContain('; Secure');
  });

  it('gives a new session id at each login and ends the one the browser had', async () => {
    const first = cookieOf(await login(t.app, demo));
    const second = await login(t.app, demo, { cookie: first });
    expect(cookieOf(second)).not.toBe(first);
    expect((await session(first)).json()).toEqual({ user: null });
    expect((await session(cookieOf(second))).json().user.email).toBe(DEMO_EMAIL);
  });

  it('answers 401 with one message for a wrong password and for an unknown email', async () => {
    const wrong = await login(t.app, { email: DEMO_EMAIL, password: 'not the password' });
    const unknown = await login(t.app, { email: 'nobody@cookbook.test', password: 'whatever123' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ statusCode: 401, message: 'Wrong email or password' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('names each bad field with a clear message', async () => {
    const empty = await login(t.app, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      statusCode: 400,
      message: 'Enter your email address',
      data: { fields: { email: 'Enter your email address', password: 'Enter your password' } },
    });
    const bad = await login(t.app, { email: 'not-an-email', password: 'x'.repeat(300) });
    expect(bad.json().data.fields).toEqual({
      email: 'Enter a valid email address, such as name@example.com',
      password: 'A password has at most 256 characters',
    });
    const typed = await login(t.app, { email: 42, password: ['x'] });
    expect(typed.statusCode).toBe(400);
    expect(Object.keys(typed.json().data.fields)).toEqual(['email', 'password']);
  });

  it('answers 400 in the error shape for a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, url: '/api/auth/login' });
  });
});

describe('login rate limit', () => {
  it('answers 429 with Retry-After after five failures for one address and email, even with the right password', async () => {
    const from = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 5; i++) expect((await login(t.app, { email: DEMO_EMAIL, password: `wrong-${i}` }, from)).statusCode).toBe(401);
    const blocked = await login(t.app, demo, from);
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json()).toMatchObject({ statusCode: 429, message: 'Too many failed sign-ins. Try again in 15 minutes.' });
    // Another address, or the same address with another email, is counted apart.
    expect((await login(t.app, demo, { 'x-forwarded-for': '203.0.113.10' })).statusCode).toBe(200);
    expect((await login(t.app, { email: 'other@cookbook.test', password: 'x' }, from)).statusCode).toBe(401);
  });

  it("lets the right password in after 20 other people's failures from the same address (one shared address)", async () => {
    const office = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < 20; i++)
      expect((await login(t.app, { email: `colleague-${i}@cookbook.test`, password: 'wrong-password' }, office)).statusCode).toBe(401);
    expect((await login(t.app, demo, office)).statusCode).toBe(200);
  }, 30_000);

  it('keeps an account that signed in from an address open there while spraying from it is capped', async () => {
    const own = await startAccountsApp({ LOGIN_ADDRESS_FAILURES_MAX: 3, LOGIN_ADDRESS_WINDOW_S: 600 });
    try {
      const shared = { 'x-forwarded-for': '198.51.100.30' };
      expect((await login(own.app, demo, shared)).statusCode).toBe(200);
      for (let i = 0; i < 3; i++)
        expect((await login(own.app, { email: `spray-${i}@cookbook.test`, password: 'password1' }, shared)).statusCode).toBe(401);
      // Spraying is capped: the next unfamiliar account is refused without its password being tried.
      expect((await login(own.app, { email: 'spray-9@cookbook.test', password: 'password1' }, shared)).statusCode).toBe(429);
      // The visitor who signed in from this address before still gets in with the right password…
      expect((await login(own.app, demo, shared)).statusCode).toBe(200);
      // …and their own account's lock (five wrong passwords) still holds.
      for (let i = 0; i < 5; i++)
        expect((await login(own.app, { email: DEMO_EMAIL, password: `wrong-${i}` }, shared)).statusCode).toBe(401);
      expect((await login(own.app, demo, shared)).statusCode).toBe(429);
    } finally {
      await own.close();
    }
  }, 30_000);

  it('caps failed sign-ins per address across different emails (spraying), then 429 + Retry-After', async () => {
    const own = await startAccountsApp({ LOGIN_ADDRESS_FAILURES_MAX: 3, LOGIN_ADDRESS_WINDOW_S: 600 });
    try {
      const from = { 'x-forwarded-for': '198.51.100.20' };
      for (let i = 0; i < 3; i++)
        expect((await login(own.app, { email: `spray-${i}@cookbook.test`, password: 'password1' }, from)).statusCode).toBe(401);
      const blocked = await login(own.app, demo, from);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(9 * 60);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(10 * 60);
      expect(blocked.json()).toMatchObject({ statusCode: 429 });
      expect((await login(own.app, demo, { 'x-forwarded-for': '198.51.100.21' })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('lifts the lock once the oldest counted failure leaves the window', async () => {
    const clock = { t: Date.now() };
    const own = await startAccountsApp({}, () => clock.t);
    try {
      const from = { 'x-forwarded-for': '198.51.100.40' };
      for (let i = 0; i < 5; i++) await login(own.app, { email: DEMO_EMAIL, password: `wrong-${i}` }, from);
      clock.t += 15 * 60_000 - 1;
      expect((await login(own.app, demo, from)).statusCode).toBe(429);
      clock.t += 1;
      expect((await login(own.app, demo, from)).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('counts the first address of the chain the gateway sends: the visitor, before the proxies it trusted', async () => {
    for (let i = 0; i < 5; i++)
      await login(t.app, { email: DEMO_EMAIL, password: 'wrong' }, { 'x-forwarded-for': `198.51.100.7, 10.0.0.${i}` });
    expect((await login(t.app, demo, { 'x-forwarded-for': '198.51.100.7, 10.9.9.9' })).statusCode).toBe(429);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session and clears the cookie', async () => {
    const cookie = cookieOf(await login(t.app, demo));
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: ORIGIN, cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null });
    expect(String(response.headers['set-cookie'])).toMatch(
      /^cookbook_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );
    expect((await session(cookie)).json()).toEqual({ user: null });
  });
});

describe('Origin check', () => {
  it('refuses state-changing requests from another origin or with no origin at all', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, {}, { origin: 'null' }, { referer: 'https://evil.example/page' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: demo });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 403, message: expect.stringMatching(/^Cross-site request refused/) });
    }
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: 'https://evil.example' } });
    expect(logout.statusCode).toBe(403);
  });

  it('accepts a Referer of this site, and the forwarded host and scheme as this site', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { referer: `${ORIGIN}/login?redirect=/` }, payload: demo }))
        .statusCode,
    ).toBe(200);
    const forwarded = { 'x-forwarded-host': 'cook.example:8443', 'x-forwarded-proto': 'https' };
    expect((await login(t.app, demo, { ...forwarded, origin: 'https://cook.example:8443' })).statusCode).toBe(200);
    expect((await login(t.app, demo, { ...forwarded, origin: 'http://cook.example:8443' })).statusCode).toBe(403);
  });
});

describe('sessions', () => {
  it('expire after SESSION_TTL_SECONDS', async () => {
    const clock = { t: Date.now() };
    const brief = await startAccountsApp({ SESSION_TTL_SECONDS: 60 }, () => clock.t);
    try {
      const cookie = cookieOf(await login(brief.app, demo));
      const user = async () => (await brief.app.inject({ url: '/api/auth/session', headers: { cookie } })).json().user;
      clock.t += 59_000;
      expect(await user()).not.toBeNull();
      clock.t += 1_000;
      expect(await user()).toBeNull();
    } finally {
      await brief.close();
    }
  });

  it('answers anonymous for a missing, forged or malformed cookie', async () => {
    for (const cookie of [undefined, `cookbook_session=${'A'.repeat(43)}`, 'cookbook_session=%%%', 'other=1']) {
      expect((await session(cookie)).json()).toEqual({ user: null });
    }
  });
});

describe('demo account', () => {
  it('is announced once in the log with its address and password', () => {
    const lines = t.logs.filter((line) => line.includes('demo account'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`sign in as ${DEMO_EMAIL} with the password ${DEMO_PASSWORD}`);
  });
});
