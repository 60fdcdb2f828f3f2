import { describe, expect, it } from 'vitest';
import { canonicalQuery, phraseOf } from './query.js';
import { markedParts } from './marked-parts.js';
import { snippetOf } from './snippet.js';
import { isSearchShortcut } from './search-enhancer.js';

describe('canonicalQuery', () => {
  it('is one spelling: NFKC, lowercase, single spaces, no control characters', () => {
    expect(canonicalQuery('  Git \t Bisect\n')).toBe('git bisect');
    expect(canonicalQuery('ｇｉｔ')).toBe('git');
    expect(canonicalQuery('a\u0000b\u200bc')).toBe('a b c');
    expect(canonicalQuery('   ')).toBe('');
  });
});

describe('phraseOf', () => {
  it('takes a quoted part, or the whole query of two words or more', () => {
    expect(phraseOf('"on conflict" sql')).toEqual({ phrase: 'on conflict', quoted: true });
    expect(phraseOf('on conflict')).toEqual({ phrase: 'on conflict', quoted: false });
    expect(phraseOf('bisect')).toEqual({ phrase: null, quoted: false });
  });
});

describe('snippetOf and markedParts', () => {
  const text = `${'lorem ipsum '.repeat(30)}then git bisect finds it ${'dolor sit '.repeat(30)}`;

  it('cuts a stretch around the first match, on word boundaries', () => {
    const snippet = snippetOf(text, ['bisect'], null);
    expect(snippet).toContain('git bisect finds it');
    expect(snippet.startsWith('… ')).toBe(true);
    expect(snippet.endsWith(' …')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(170);
  });

  it('marks whole words only, case-insensitively, and leaves markup as text', () => {
    expect(markedParts('Bisect <b>bisected</b> bisect', ['bisect'])).toEqual([
      { text: 'Bisect', marked: true },
      { text: ' <b>bisected</b> ', marked: false },
      { text: 'bisect', marked: true },
    ]);
  });
});

describe('isSearchShortcut', () => {
  const key = (k: string, extra: Partial<KeyboardEvent> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    target: null,
    ...extra,
  });

  it('takes / outside a field, and Ctrl+K or ⌘K anywhere', () => {
    expect(isSearchShortcut(key('/'))).toBe(true);
    expect(isSearchShortcut(key('k', { ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(key('k', { metaKey: true }))).toBe(true);
    expect(isSearchShortcut(key('k'))).toBe(false);
    expect(isSearchShortcut(key('/', { ctrlKey: true }))).toBe(false);
    const field = { tagName: 'INPUT', isContentEditable: false } as unknown as EventTarget;
    expect(isSearchShortcut(key('/', { target: field }))).toBe(false);
    expect(isSearchShortcut(key('k', { ctrlKey: true, target: field }))).toBe(true);
  });
});
