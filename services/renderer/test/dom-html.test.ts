import { describe, expect, it, vi } from 'vitest';
import { domHtml, htmlHash, isDomHtml, reviveDomHtml } from '../src/runtime/shared/dom-html.js';
import { toInlineJson } from '../src/server/inline-json.js';

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

describe('reviveDomHtml in the browser', () => {
  it('reads the HTML from the element keyed in the document, once and only when asked', () => {
    const querySelector = vi.fn((selector: string) =>
      selector === '[data-dom-html="recipe:a"]' ? { innerHTML: '<p>read back</p>' } : null,
    );
    vi.stubGlobal('document', { querySelector });
    vi.stubGlobal('CSS', { escape: (value: string) => value });
    try {
      const text = toInlineJson({ body: domHtml('recipe:a', BODY), other: { $domHtml: 7 } });
      const revived = JSON.parse(text, reviveDomHtml) as { body: { key: string; hash: string; html: string }; other: unknown };
      expect(querySelector).not.toHaveBeenCalled();
      expect(revived.body.key).toBe('recipe:a');
      expect(revived.body.hash).toBe(htmlHash(BODY));
      expect(revived.body.html).toBe('<p>read back</p>');
      expect(revived.body.html).toBe('<p>read back</p>');
      expect(querySelector).toHaveBeenCalledTimes(1);
      // Not a reference (the key is not a string): left as it is.
      expect(revived.other).toEqual({ $domHtml: 7 });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reads an element that is missing as empty HTML', () => {
    vi.stubGlobal('document', { querySelector: () => null });
    vi.stubGlobal('CSS', { escape: (value: string) => value });
    try {
      const revived = JSON.parse(toInlineJson(domHtml('gone', BODY)), reviveDomHtml) as { html: string };
      expect(revived.html).toBe('');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
