import { describe, expect, it } from 'vitest';
import { originForm } from './origin-form.js';

describe('originForm', () => {
  it('keeps an origin-form target as sent', () => {
    for (const url of ['/', '/category/git/', '//evil.example/x', '/a?b=http://c/d']) expect(originForm(url)).toBe(url);
  });

  it('drops the scheme and authority of an absolute-form target', () => {
    expect(originForm('http://evil.example/category/git/')).toBe('/category/git/');
    expect(originForm('HTTPS://user:pw@evil.example:8443/a?b=1')).toBe('/a?b=1');
    expect(originForm('http://evil.example')).toBe('/');
    expect(originForm('http://evil.example?x=1')).toBe('/?x=1');
    expect(originForm('http://evil.example#frag')).toBe('/#frag');
  });

  it('leaves anything else to the router (asterisk form, junk)', () => {
    for (const url of ['*', 'evil.example/x', 'http:/x']) expect(originForm(url)).toBe(url);
  });
});
