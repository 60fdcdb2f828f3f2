/**
 * A page rendered in one pass to one string, when it can be. React's streaming renderer encodes
 * each of a page's thousands of small pieces into bytes as it writes them (a typed-array view and
 * a TextEncoder call a piece); its string renderer appends them to a string. For a page whose
 * render completes without waiting (its loaders' data is in, no part suspends: every page of the
 * site served here), the stream's shell is the whole page, so streaming it gains the visitor nothing
 * and cost a third of the renderer's CPU on a listing page (docs/decisions/performance.md, stop 43).
 * Both give the same bytes (whole-page.test.tsx).
 *
 * A page that suspends, or whose render throws, is rendered again by the stream, which waits for
 * what suspended, logs what threw and answers a shell's error. Its page modules are remembered, so
 * the page streams from then on instead of paying for a pass it throws away.
 */
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';

/** React's marker of a boundary its string renderer left to the browser (it suspended or threw). */
const CLIENT_RENDERED_BOUNDARY = '<!--$!';
/** Distinct pages (sets of page modules) remembered as suspending; past it the memory starts again. */
const SUSPENDING_MAX = 1000;

export interface WholePageRenderer {
  /** The page's HTML, or null: it must stream (see above). `page` names its page modules. */
  render(element: ReactElement, page: string): string | null;
}

export function createWholePageRenderer(): WholePageRenderer {
  const suspending = new Set<string>();
  const streamsFromNowOn = (page: string) => {
    if (suspending.size >= SUSPENDING_MAX) suspending.clear();
    suspending.add(page);
  };
  return {
    render(element, page) {
      if (suspending.has(page)) return null;
      let html: string;
      try {
        html = renderToString(element);
      } catch {
        // The shell threw, or suspended outside any boundary: the stream answers or waits for it.
        streamsFromNowOn(page);
        return null;
      }
      if (!html.includes(CLIENT_RENDERED_BOUNDARY)) return html;
      streamsFromNowOn(page);
      return null;
    },
  };
}

/**
 * The inline bootstrap script as React's stream writes it after the shell: with the nonce, and
 * with the id React gives the script that ends a completed shell (`_R_`, what a document React
 * renders whole waits for), so both ways give the same bytes. The script is the renderer's own
 * (hydrate-after-paint.ts); one that could end the element early is refused, not escaped.
 */
export function bootstrapScriptTag(nonce: string, script: string): string {
  if (/<\/script|<!--/i.test(script)) throw new Error('an inline bootstrap script must not contain "</script" or "<!--"');
  return `<script nonce="${nonce}" id="_R_">${script}</script>`;
}
