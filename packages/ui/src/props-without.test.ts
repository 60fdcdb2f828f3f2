import { describe, expect, it } from 'vitest';
import { propsWithout } from './props-without.js';

describe('props without the named ones', () => {
  it('copies every other own prop, undefined values included, and leaves the props as they were', () => {
    const props = { to: '/x', state: { from: 1 }, className: 'link', title: undefined, children: ['a'] };
    const rest = propsWithout(props, new Set(['to', 'state'] as const));
    expect(rest).toEqual({ className: 'link', title: undefined, children: ['a'] });
    expect(Object.keys(rest)).toEqual(['className', 'title', 'children']);
    expect(rest.children).toBe(props.children);
    expect(props).toHaveProperty('to', '/x');
  });

  it('gives what an object rest gives', () => {
    const props = { value: 1, id: 'v', 'aria-label': 'l', 'data-x': '' };
    const { value: _value, ...expected } = props;
    expect(propsWithout(props, new Set(['value'] as const))).toEqual(expected);
  });
});
