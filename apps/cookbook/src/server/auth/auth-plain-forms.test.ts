/** The plain HTML forms' sign-in and sign-out (server/auth/plain-forms.ts): a form body in, a 303 out. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURE_MESSAGES } from '../../app/login-rules.js';
import { DEMO_EMAIL, DEMO_PASSWORD } from './demo-account.js';
import { typedEmailFrom } from './plain-forms.js';
import { LOGIN_FAILURES_MAX } from './limits.js';
import { cookieOf, ORIGIN, startAccountsApp, type AccountsApp } from '../../test-support/accounts-app.js';

let t: AccountsApp;
beforeAll(async () => {
  t = await startAccountsApp();
});
afterAll(() => t.close());

const setCookies = (response: { headers: Record<string, unknown> }): string[] => [response.headers['set-cookie'] ?? []].flat() as string[];

const postForm = (fields: Record<string, string> | string, headers: Record<string, string> = {}, url = '/api/auth/login') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
  });

describe('sign-in by the plain form', () => {
  it('signs in and sends the browser on to the redirect with 303 and the session cookie', async () => {
    const response = await postForm({ redirect: '/saved?x=1', email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/saved?x=1');
    expect(response.headers['cache-control']).toBe('no-store');
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: cookieOf(response) } });
    expect(session.json().user.email).toBe(DEMO_EMAIL);
  });

  it('goes to / when the redirect would leave the site or is missing', async () => {
    for (const redirect of ['//evil.example', 'https://evil.example/', '/\\evil', '']) {
      const response = await postForm({ redirect, email: DEMO_EMAIL, password: DEMO_PASSWORD });
      expect(response.headers.location, redirect).toBe('/');
    }
  });

  it('sends a failure back to the login page as a code, keeping the redirect, without a session', async () => {
    const wrong = await postForm({ redirect: '/saved', email: 'cook@example.com', password: 'not it' });
    expect(wrong.statusCode).toBe(303);
    expect(wrong.headers.location).toBe('/login?redirect=%2Fsaved&failed=credentials');
    expect(setCookies(wrong).some((cookie) => cookie.startsWith('cookbook_session='))).toBe(false);
    const empty = await postForm({ email: '', password: '' });
    expect(empty.headers.location).toBe('/login?failed=invalid');
    expect(Object.keys(LOGIN_FAILURE_MESSAGES)).toEqual(['invalid', 'credentials', 'blocked']);
  });

  it('brings the email typed back to the login page alone, for a minute, and forgets it on success', async () => {
    const wrong = await postForm({ email: ' cook@example.com ', password: 'not it' });
    const [typed] = setCookies(wrong).filter((cookie) => cookie.startsWith('cookbook_login_email='));
    // URI-encoded on the wire (`cookie` 1 encodes every value; docs/decisions/fast-build.md), read back as typed.
    expect(typed).toBe('cookbook_login_email=cook%40example.com; Max-Age=60; Path=/login; HttpOnly; SameSite=Lax');
    expect(typedEmailFrom(typed!.split(';')[0])).toBe('cook@example.com');
    expect(typedEmailFrom(`cookbook_login_email=${'a'.repeat(300)}`)).toBe('');
    expect(typedEmailFrom(undefined)).toBe('');

    const right = await postForm({ email: DEMO_EMAIL, password: DEMO_PASSWORD }, { cookie: typed!.split(';')[0]! });
    const cleared = setCookies(right).find((cookie) => cookie.startsWith('cookbook_login_email='));
    expect(cleared).toMatch(/^cookbook_login_email=; .*Path=\/login/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    // Nothing to forget, nothing said.
    expect(setCookies(right).filter((cookie) => cookie.startsWith('cookbook_session='))).toHaveLength(1);
    const again = await postForm({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(setCookies(again).some((cookie) => cookie.startsWith('cookbook_login_email='))).toBe(false);
  });

  it('forgets the email typed when the hydrated page then signs in by script (JSON)', async () => {
    const wrong = await postForm({ email: 'cook@example.com', password: 'not it' });
    const typed = setCookies(wrong)
      .find((cookie) => cookie.startsWith('cookbook_login_email='))!
      .split(';')[0]!;
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: ORIGIN, 'content-type': 'application/json', cookie: typed },
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    expect(json.statusCode).toBe(200);
    expect(setCookies(json).find((cookie) => cookie.startsWith('cookbook_login_email='))).toMatch(/^cookbook_login_email=; .*Path=\/login/);
  });

  it('says "blocked" once the failures are over the limit', async () => {
    const fields = { email: 'victim@example.com', password: 'guess' };
    for (let i = 0; i < LOGIN_FAILURES_MAX; i++) await postForm(fields);
    expect((await postForm(fields)).headers.location).toBe('/login?failed=blocked');
  });

  it('keeps the first of a repeated field and refuses a body larger than any form of ours', async () => {
    const repeated = `email=${encodeURIComponent(DEMO_EMAIL)}&email=x&password=${encodeURIComponent(DEMO_PASSWORD)}&redirect=/about`;
    expect((await postForm(repeated)).headers.location).toBe('/about');
    const huge = await postForm({ email: 'a@b.co', password: 'x'.repeat(20_000) }, { accept: 'application/json' });
    expect(huge.statusCode).toBe(413);
  });

  it('is refused from another site like any other state change', async () => {
    const response = await postForm(
      { email: DEMO_EMAIL, password: DEMO_PASSWORD },
      { origin: 'https://evil.example', accept: 'application/json' },
    );
    expect(response.statusCode).toBe(403);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe('sign-out by the plain form', () => {
  it('ends the session, clears the cookie and sends the browser to the page the form names', async () => {
    const cookie = cookieOf(await postForm({ email: DEMO_EMAIL, password: DEMO_PASSWORD }));
    const response = await postForm({ redirect: '/category/git?sort=new' }, { cookie }, '/api/auth/logout');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/category/git?sort=new');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(setCookies(response).find((c) => c.startsWith('cookbook_session='))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.json()).toEqual({ user: null });
  });

  it('goes to / for a redirect off the site, and is refused from another site', async () => {
    expect((await postForm({ redirect: '//evil.example' }, {}, '/api/auth/logout')).headers.location).toBe('/');
    const foreign = await postForm({ redirect: '/' }, { origin: 'https://evil.example', accept: 'application/json' }, '/api/auth/logout');
    expect(foreign.statusCode).toBe(403);
  });
});
