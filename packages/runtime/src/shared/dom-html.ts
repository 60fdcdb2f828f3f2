/**
 * HTML that a page's data carries and its document already holds (an article's rendered Markdown):
 * sent once. The server's inline payload carries a reference in its place (`{"$domHtml": key}`),
 * and `DomHtmlBlock`, which draws it in `data-dom-html="key"`, reads the HTML back from that element
 * when it first renders on the client (a part hydrating later reads it then; nothing of this is in
 * the pages' shared entry). `/_payload.json` (client navigations) carries the HTML itself.
 * Browser-safe.
 *
 * The HTML the browser gives back is its own serialisation of the same markup (`&lt;` for the
 * server's `&#x3C;` and the like), so each value also carries a hash of the server's string:
 * `DomHtmlBlock` keeps what it drew while the hash stays the same, and a revalidation that brings
 * the server's string does not redraw (and so detach) the same content.
 *
 * The contract: a value made with `domHtml` in a loader must be drawn by a `DomHtmlBlock` in the
 * page's server HTML; a value whose element is missing reads as ''.
 */

export const DOM_HTML_ATTRIBUTE = 'data-dom-html';
const REFERENCE_KEY = '$domHtml';

export interface DomHtml {
  /** Unique within the page: the element's `data-dom-html`. */
  readonly key: string;
  readonly html: string;
  /** A hash of the server's string (FNV-1a, hex). */
  readonly hash: string;
}

/**
 * The mark of a value made by `domHtml`: a registered symbol, since the server bundle of the app and
 * the server's own code each load this module (a WeakSet of one would not know the other's values).
 * Not enumerable, so copies and JSON leave it out.
 */
const MADE = Symbol.for('platform.domHtml');
const hashes = new Map<string, string>();
const HASHES_KEPT = 1024;

/** FNV-1a over UTF-16 code units: cheap, and enough to tell one version of a text from another. */
export function htmlHash(html: string): string {
  let cached = hashes.get(html);
  if (cached === undefined) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < html.length; i++) hash = Math.imul(hash ^ html.charCodeAt(i), 0x01000193);
    cached = (hash >>> 0).toString(16);
    // Content strings are few per build; anything else must not grow this for ever.
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hashes.set(html, cached);
  }
  return cached;
}

/** Marks `html` (shown in the element keyed `key`) as travelling once, in the document. */
export function domHtml(key: string, html: string): DomHtml {
  const value: DomHtml = { key, html, hash: htmlHash(html) };
  Object.defineProperty(value, MADE, { value: true });
  return value;
}

/** A value made by `domHtml` in this process (the server's inline payload writes its reference). */
export function isDomHtml(value: unknown): value is DomHtml {
  return typeof value === 'object' && value !== null && (value as { [MADE]?: unknown })[MADE] === true;
}

/** What the inline payload holds for a DomHtml: its key and hash, not its HTML. */
export interface DomHtmlReference {
  [REFERENCE_KEY]: string;
  hash: string;
}

export function domHtmlReference(value: DomHtml): DomHtmlReference {
  return { [REFERENCE_KEY]: value.key, hash: value.hash };
}

/** The key and hash of a value as the page's data holds it (the HTML itself, or its reference). */
export function domHtmlIdentity(value: DomHtml | DomHtmlReference): { key: string; hash: string } {
  return REFERENCE_KEY in value ? { key: value[REFERENCE_KEY], hash: value.hash } : value;
}

/**
 * The HTML of a value: its own, or for the inline payload's reference (hydration) the HTML of the
 * element keyed in the document; '' when there is none. Browser-only for a reference.
 */
export function domHtmlText(value: DomHtml | DomHtmlReference): string {
  if (!(REFERENCE_KEY in value)) return value.html;
  const element = document.querySelector(`[${DOM_HTML_ATTRIBUTE}="${CSS.escape(value[REFERENCE_KEY])}"]`);
  return element?.innerHTML ?? '';
}
