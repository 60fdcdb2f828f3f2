import { describe, expect, it } from 'vitest';
import { toScriptSafeJson } from './payload.js';
import { toInlineJson } from '@tern/renderer/inline-json';

const long = (tag: string) => `<p>${tag}</p>${'<code>a && b</code> \u2028\u2029 "quoted" é 😀 '.repeat(20)}</script><!--`;

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

const cases: Record<string, unknown> = {
  'a category payload': {
    buildId: 'b1',
    path: '/category/git',
    data: {
      'category-id': {
        recipes: [
          { id: 'a', html: long('a'), tags: ['x'], cover: null },
          { id: 'b', html: long('b'), tags: [] },
        ],
      },
    },
    errors: null,
  },
  'undefined, functions and symbols': { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('s'), 1] },
  numbers: { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, negZero: -0, big: 1e21, small: 5e-7 },
  'dates, maps and class instances': { when: new Date(0), map: new Map([[1, 2]]), point: new Point(1, 2), nested: [new Date(1)] },
  'a null-prototype object': Object.assign(Object.create(null) as object, { a: 1, [long('key')]: long('value') }),
  'an own toJSON': { a: { toJSON: () => ({ replaced: long('t') }) } },
  'escapable characters in keys': { '</script>': 1, '\u2028': 2, '&amp;': 3 },
  'top-level primitives': [null, true, 0, 'x', long('top')],
  'sparse arrays': [1, , 3], // eslint-disable-line no-sparse-arrays
};

describe('toInlineJson', () => {
  for (const [name, value] of Object.entries(cases)) {
    it(`gives the same text as toScriptSafeJson: ${name}`, () => {
      expect(toInlineJson(value)).toBe(toScriptSafeJson(value));
    });
  }

  it('matches on random nested data', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['<', '>', '&', '\u2028', '"', '\\', 'é', 'a', '\n', '😀'];
    const text = (n: number) => Array.from({ length: n }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    const make = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3)
        return [text(Math.floor(random() * 300)), Math.floor(random() * 1000) - 500, null, true, undefined][Math.floor(random() * 5)];
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 5) }, () => make(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [text(4), make(depth + 1)]));
    };
    for (let i = 0; i < 300; i++) {
      const value = { root: make(0) };
      expect(toInlineJson(value)).toBe(toScriptSafeJson(value));
    }
  });

  it('fails where JSON.stringify fails', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => toInlineJson(circular)).toThrow();
    expect(() => toInlineJson({ n: 1n })).toThrow();
  });
});
