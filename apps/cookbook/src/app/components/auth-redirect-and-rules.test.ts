import { describe, expect, it } from 'vitest';
import { loginHref, safeRedirect, serverLoginHref } from './safe-redirect.js';
import { checkLoginFields, LOGIN_FAILURE_MESSAGES, LOGIN_MESSAGES, loginFailureMessage } from '../login-rules.js';
import { loginSchema } from '../../server/auth/login-schema.js';

describe('safeRedirect', () => {
  it('keeps paths of this site, with their query and hash', () => {
    expect(safeRedirect('/category/git')).toBe('/category/git');
    expect(safeRedirect('/category/git?x=1#undo')).toBe('/category/git?x=1#undo');
    expect(safeRedirect('/a/../category/git')).toBe('/category/git');
    // Encoded slashes are path characters, not separators: they stay on this site.
    expect(safeRedirect('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });

  it('turns anything that could leave the site into /', () => {
    for (const target of [
      null,
      undefined,
      '',
      'category',
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      'http:/evil.example',
      '/login',
      '/login?redirect=//evil.example',
      '/.//evil.example',
      '/..//evil.example',
      '/./..//evil.example/x?y=1',
      '/a/..//evil.example',
      '/%2e//evil.example',
      '/%2e%2e//evil.example',
      '/%2E%2E//evil.example',
      '/.%2e//evil.example',
      '/./\\evil.example',
      '/.\\/evil.example',
      '/\\/evil.example',
      '/%5C%5Cevil.example/..//evil.example',
    ]) {
      expect(safeRedirect(target), String(target)).toBe('/');
    }
  });

  it("builds the server's login link as loginHref does, parsing only what is not a plain path", () => {
    const paths = [
      '/',
      '/category/git#bash-loop',
      '/a/b/',
      '/A~b-c_d',
      '/#',
      '/./a',
      '/login',
      '/login#x',
      '/login/',
      '/a//b',
      '/a?b=1#c',
      '//evil',
      '/%2e%2e//evil',
      '/a b',
    ];
    for (const path of paths) expect(serverLoginHref(path), path).toBe(loginHref(path));
  });

  it('builds the login link for the current page', () => {
    expect(loginHref('/')).toBe('/login');
    expect(loginHref('/category/git#undo')).toBe('/login?redirect=%2Fcategory%2Fgit%23undo');
  });
});

describe('login rules shared by the form and the server', () => {
  it("says a plain form's failure code, and nothing for any other word, Object's own names included", () => {
    expect(loginFailureMessage('credentials')).toBe(LOGIN_MESSAGES.wrongCredentials);
    expect(loginFailureMessage('blocked')).toBe(LOGIN_FAILURE_MESSAGES.blocked);
    for (const code of [null, '', 'nope', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(loginFailureMessage(code), String(code)).toBeNull();
    }
  });

  const cases: [string, string][] = [
    ['', 'x'],
    ['not-an-email', 'x'],
    ['a@b.co', ''],
    [`${'a'.repeat(250)}@b.co`, 'x'],
    ['a@b.co', 'x'.repeat(257)],
    ['a@b.co', 'fine password'],
  ];
  it('say the same thing in the browser and on the server', () => {
    for (const [email, password] of cases) {
      const browser = checkLoginFields(email, password);
      const server = loginSchema.safeParse({ email, password });
      const serverFields = Object.fromEntries((server.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
      expect(browser, `${email} / ${password.length}`).toEqual(serverFields);
    }
    expect(checkLoginFields('', '').email).toBe(LOGIN_MESSAGES.emailMissing);
  });
});
