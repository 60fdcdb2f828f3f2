import { describe, expect, it } from 'vitest';
import { canonicalPath, canonicalRedirect } from './canonical-path.js';

describe('canonicalPath', () => {
  it('decodes percent-encoded unreserved characters, in any hex case', () => {
    expect(canonicalPath('/category/gi%74')).toBe('/category/git');
    expect(canonicalPath('/%63ategory/%67%69%74')).toBe('/category/git');
    expect(canonicalPath('/a%2Db%2ec%5Fd%7e')).toBe('/a-b.c_d~');
  });

  it('keeps reserved and other octets encoded, with uppercase hex', () => {
    expect(canonicalPath('/category/git%2fx')).toBe('/category/git%2Fx');
    expect(canonicalPath('/a%20b%3F')).toBe('/a%20b%3F');
    expect(canonicalPath('/%25')).toBe('/%25');
    expect(canonicalPath('/caf%C3%A9')).toBe('/caf%C3%A9');
  });

  it('keeps the case (a path in another case is no page) and drops trailing slashes but the root', () => {
    expect(canonicalPath('/CATEGORY/Git')).toBe('/CATEGORY/Git');
    expect(canonicalPath('/category/%47it')).toBe('/category/Git');
    expect(canonicalPath('/category/git/')).toBe('/category/git');
    expect(canonicalPath('/category/git///')).toBe('/category/git');
    expect(canonicalPath('/')).toBe('/');
    expect(canonicalPath('//')).toBe('/');
  });

  it('removes dot segments in any spelling, as a browser resolves them (RFC 3986 §5.2.4)', () => {
    expect(canonicalPath('/category/x/../git')).toBe('/category/git');
    expect(canonicalPath('/category/./git')).toBe('/category/git');
    expect(canonicalPath('/./category/git')).toBe('/category/git');
    expect(canonicalPath('/category/git/.')).toBe('/category/git');
    expect(canonicalPath('/category/%2E/git')).toBe('/category/git');
    expect(canonicalPath('/category/x/%2E%2E/git')).toBe('/category/git');
    expect(canonicalPath('/a/.%2e/b')).toBe('/b');
    expect(canonicalPath('/../../etc/passwd')).toBe('/etc/passwd');
    expect(canonicalPath('/a/%2e%2e%2e')).toBe('/a/...');
    expect(canonicalPath('/a/..%2Fb')).toBe('/a/..%2Fb');
  });

  it('reads a backslash as a slash and drops empty segments', () => {
    expect(canonicalPath('/category/git\\')).toBe('/category/git');
    expect(canonicalPath('/category\\git')).toBe('/category/git');
    expect(canonicalPath('/category//git//_payload.json')).toBe('/category/git/_payload.json');
    expect(canonicalPath('/a/%5Cb')).toBe('/a/%5Cb');
  });

  it('is idempotent', () => {
    for (const path of ['/CATEGORY/gi%74/', '/a%2fB%7E', '/%', '/x%zz', '/a/%2e%2E/./b\\/', '/%2e%2e%2e/..//c'])
      expect(canonicalPath(canonicalPath(path))).toBe(canonicalPath(path));
  });
});

describe('canonicalRedirect', () => {
  it('is null for a canonical path and keeps the query otherwise', () => {
    expect(canonicalRedirect('/category/git?q=1')).toBeNull();
    expect(canonicalRedirect('/category/gi%74/?Q=1')).toBe('/category/git?Q=1');
  });

  it('leaves file names alone, but not their folders, nor payloads', () => {
    expect(canonicalRedirect('/images/Photo.JPG')).toBeNull();
    expect(canonicalRedirect('/images/Ph%6Fto.JPG')).toBeNull();
    expect(canonicalRedirect('/images/./x/../Ph%6Fto.JPG')).toBe('/images/Ph%6Fto.JPG');
    expect(canonicalRedirect('/category/gi%74/_payload.json?abc')).toBe('/category/git/_payload.json?abc');
  });

  it('drops a fragment sent in the request line', () => {
    expect(canonicalRedirect('/category/git#undo')).toBe('/category/git');
    expect(canonicalRedirect('/category/git?q=1#undo')).toBe('/category/git?q=1');
    expect(canonicalRedirect('/category/./git#x?y')).toBe('/category/git');
  });

  it('judges a last dot segment as a path, not a file name', () => {
    expect(canonicalRedirect('/category/git/.')).toBe('/category/git');
    expect(canonicalRedirect('/category/git/x/%2e%2E')).toBe('/category/git');
    expect(canonicalRedirect('/category/./git/_payload.json')).toBe('/category/git/_payload.json');
  });

  it('never points at another host', () => {
    expect(canonicalRedirect('/\\evil.example/')).toBe('/evil.example');
    expect(canonicalRedirect('/./\\evil.example')).toBe('/evil.example');
    expect(canonicalRedirect('//evil.example/')).toBe('/evil.example');
    expect(canonicalRedirect('/%2F%2Fevil.example')).toBeNull();
  });
});
