import { describe, expect, it, vi } from 'vitest';
import { domHtml, domHtmlIdentity, domHtmlText, htmlHash, isDomHtml, type DomHtmlReference } from './dom-html.js';
import { toInlineJson } from '@tern/renderer/inline-json';

const BODY = '<p>Run <code>git bisect</code> &#x3C;good&#x3E;</p>';

describe('domHtml in the inline payload', () => {
  it('writes a reference (key and hash) instead of the HTML, and JSON keeps the HTML', () => {
    const data = { recipes: [{ id: 'a', html: domHtml('recipe:a', BODY) }] };
    const inline = toInlineJson(data);
    expect(inline).toBe(`{"recipes":[{"id":"a","html":{"$domHtml":"recipe:a","hash":"${htmlHash(BODY)}"}}]}`);
    expect(JSON.parse(JSON.stringify(data))).toEqual({
      recipes: [{ id: 'a', html: { key: 'recipe:a', html: BODY, hash: htmlHash(BODY) } }],
    });
  });

  it('marks only what domHtml made, copies and look-alikes are plain data', () => {
    const value = domHtml('k', BODY);
    expect(isDomHtml(value)).toBe(true);
    expect(isDomHtml({ ...value })).toBe(false);
    expect(isDomHtml({ key: 'k', html: BODY, hash: value.hash })).toBe(false);
    expect(toInlineJson({ ...value })).toContain('git bisect');
  });

  it('hashes the text: the same text alike, another text not', () => {
    expect(htmlHash(BODY)).toBe(htmlHash(`${BODY}`));
    expect(htmlHash(BODY)).not.toBe(htmlHash(`${BODY} `));
    expect(htmlHash(BODY)).toMatch(/^[0-9a-f]{1,8}$/);
  });
});

describe('reading a value back in the browser', () => {
  it('gives the HTML of a value that has it, and reads a reference from the element keyed in the document', () => {
    const querySelector = vi.fn((selector: string) =>
      selector === '[data-dom-html="recipe:a"]' ? { innerHTML: '<p>read back</p>' } : null,
    );
    vi.stubGlobal('document', { querySelector });
    vi.stubGlobal('CSS', { escape: (value: string) => value });
    try {
      const made = domHtml('recipe:a', BODY);
      expect(domHtmlText(made)).toBe(BODY);
      expect(querySelector).not.toHaveBeenCalled();
      const reference = JSON.parse(toInlineJson(made)) as DomHtmlReference;
      expect(domHtmlIdentity(reference)).toEqual({ key: 'recipe:a', hash: htmlHash(BODY) });
      expect(domHtmlIdentity(made)).toMatchObject({ key: 'recipe:a', hash: htmlHash(BODY) });
      expect(domHtmlText(reference)).toBe('<p>read back</p>');
      // An element that is missing reads as empty HTML.
      expect(domHtmlText({ $domHtml: 'gone', hash: '0' })).toBe('');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
