import { describe, expect, it } from 'vitest';
import { MAX_ICONS_PER_REQUEST, isValidName, parseIconNames } from './names.js';

describe('parseIconNames', () => {
  it('splits on commas, trims, drops empties, de-duplicates and sorts', () => {
    expect(parseIconNames(' house, check ,,house,arrow-up ,')).toEqual({
      valid: ['arrow-up', 'check', 'house'],
      invalid: [],
      tooMany: false,
    });
  });

  it('merges repeated icons parameters', () => {
    expect(parseIconNames(['house,check', 'check', 'x'])).toMatchObject({ valid: ['check', 'house', 'x'] });
  });

  it('gives nothing for a missing, empty or non-string value', () => {
    for (const value of [undefined, '', ',,, ,', [], [''], { a: 1 }]) {
      expect(parseIconNames(value)).toEqual({ valid: [], invalid: [], tooMany: false });
    }
  });

  it('separates invalid names: case, underscores, dots, unicode, doubled or edge hyphens, too long', () => {
    const long = 'a'.repeat(65);
    const result = parseIconNames(['House,__proto__,a..b,✓,ﬁle,a--b,-a,a-,a_b,ok-1', long].join(','));
    expect(result.valid).toEqual(['ok-1']);
    expect(result.invalid).toEqual(['-a', '__proto__', 'House', 'a--b', 'a-', 'a..b', 'a_b', long, 'ﬁle', '✓'].sort());
  });

  it('accepts a 64-character name and refuses 65', () => {
    expect(isValidName('a'.repeat(64))).toBe(true);
    expect(isValidName('a'.repeat(65))).toBe(false);
  });

  it('flags more than the maximum of distinct names, and counts duplicates once', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `icon-${i}`).join(',');
    expect(parseIconNames(names(MAX_ICONS_PER_REQUEST)).tooMany).toBe(false);
    expect(parseIconNames(names(MAX_ICONS_PER_REQUEST + 1)).tooMany).toBe(true);
    expect(parseIconNames(names(10_000)).tooMany).toBe(true);
    expect(parseIconNames(Array(10_000).fill('house').join(',')).valid).toEqual(['house']);
  });
});
