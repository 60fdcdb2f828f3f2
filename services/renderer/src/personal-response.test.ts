import { createElement, Fragment } from 'react';
import { describe, expect, it } from 'vitest';
import { PART_SEPARATOR, type PersonalPart } from '@tern/runtime/server/ssr-entry';
import { renderParts } from './personal-response.js';
import type { RenderContext } from './render-context.js';

/** A server entry whose parts print the state's name and their props, counting its draws. */
function contextDrawing() {
  const drawn: string[] = [];
  const entry = {
    async personalPartsElement(path: string, state: unknown, parts: PersonalPart[]) {
      drawn.push(path);
      const name = (state as { name?: string } | undefined)?.name ?? 'anonymous';
      return createElement(
        Fragment,
        null,
        parts.map((part, index) => createElement(Fragment, { key: index }, index > 0 ? createElement('template', { 'data-part-separator': '' }) : null, createElement('b', null, `${name} ${JSON.stringify(part.props)} at ${path}`))),
      );
    },
  };
  return { context: { entry } as unknown as RenderContext, drawn };
}

describe('renderParts', () => {
  const parts: PersonalPart[] = [
    { name: 'account', props: {} },
    { name: '$state', props: {} },
    { name: 'save', props: { id: 'x' } },
  ];

  it('draws each part once per (path, state, parts), then answers from memory', async () => {
    const { context, drawn } = contextDrawing();
    const first = await renderParts(context, '/a', { name: 'Ada' }, parts);
    expect(first[0]).toBe('<b>Ada {} at /a</b>');
    expect(first[1]).toContain('"name":"Ada"');
    expect(first[2]).toBe('<b>Ada {&quot;id&quot;:&quot;x&quot;} at /a</b>');
    expect(first.join('')).not.toContain(PART_SEPARATOR);
    expect(await renderParts(context, '/a', { name: 'Ada' }, parts)).toEqual(first);
    expect(drawn).toEqual(['/a']);
  });

  it('draws again for another state, another path or other parts', async () => {
    const { context, drawn } = contextDrawing();
    await renderParts(context, '/a', { name: 'Ada' }, parts);
    expect((await renderParts(context, '/a', { name: 'Grace' }, parts))[0]).toBe('<b>Grace {} at /a</b>');
    expect((await renderParts(context, '/b', { name: 'Ada' }, parts))[0]).toBe('<b>Ada {} at /b</b>');
    expect((await renderParts(context, '/a', { name: 'Ada' }, [{ name: 'save', props: { id: 'y' } }]))[0]).toContain('y');
    expect((await renderParts(context, '/a', undefined, parts))[0]).toBe('<b>anonymous {} at /a</b>');
    expect(drawn).toEqual(['/a', '/a', '/b', '/a', '/a']);
  });
});
