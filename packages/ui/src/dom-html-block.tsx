/**
 * Draws a `domHtml` value (runtime/shared/dom-html.ts): its HTML in a `<div data-dom-html>`. At
 * hydration the page's data holds the inline payload's reference, and the HTML is read back from
 * that very element instead of having been sent a second time.
 */
import { useMemo, type ComponentProps } from 'react';
import { DOM_HTML_ATTRIBUTE, domHtmlIdentity, domHtmlText, type DomHtml, type DomHtmlReference } from '@tern/runtime/shared/dom-html';

export type DomHtmlBlockProps = { value: DomHtml | DomHtmlReference } & Omit<ComponentProps<'div'>, 'children' | 'dangerouslySetInnerHTML'>;

export function DomHtmlBlock({ value, ...props }: DomHtmlBlockProps) {
  const { key, hash } = domHtmlIdentity(value);
  // Kept while the key and hash stay: the HTML read back from the document and the server's string
  // for the same text differ in spelling only, and React would redraw the block for that.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const inner = useMemo(() => ({ __html: domHtmlText(value) }), [key, hash]);
  return <div {...props} {...{ [DOM_HTML_ATTRIBUTE]: key }} dangerouslySetInnerHTML={inner} />;
}
