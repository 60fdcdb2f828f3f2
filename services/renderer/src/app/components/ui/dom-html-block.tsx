/**
 * Draws a `domHtml` value (runtime/shared/dom-html.ts): its HTML in a `<div data-dom-html>`, where
 * the browser reads it back at hydration instead of receiving it a second time in the payload.
 */
import { useMemo, type ComponentProps } from 'react';
import { DOM_HTML_ATTRIBUTE, type DomHtml } from '../../../runtime/shared/dom-html.js';

export type DomHtmlBlockProps = { value: DomHtml } & Omit<ComponentProps<'div'>, 'children' | 'dangerouslySetInnerHTML'>;

export function DomHtmlBlock({ value, ...props }: DomHtmlBlockProps) {
  // Kept while the key and hash stay: the HTML read back from the document and the server's string
  // for the same text differ in spelling only, and React would redraw the block for that.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const inner = useMemo(() => ({ __html: value.html }), [value.key, value.hash]);
  return <div {...props} {...{ [DOM_HTML_ATTRIBUTE]: value.key }} dangerouslySetInnerHTML={inner} />;
}
