/**
 * A copy button (copy-button.tsx) in every <figure data-code-block> of server-rendered rich text,
 * after hydration, so the HTML from the server stays untouched. The buttons' code is not part of
 * the page's first load: it is imported once the page has hydrated and found a code block, and
 * the buttons are drawn in a render of their own, after the hydration's. A failed import leaves
 * the code without buttons (it can still be selected and copied by hand).
 */
import { useEffect, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { lazyPart, useLazyPart } from './lazy-part.js';

const copyButton = lazyPart(() => import('./copy-button.js'));

export interface CodeBlockCopyButtonsProps {
  /** The element holding the rich text. */
  containerRef: RefObject<HTMLElement | null>;
  /** Changes when the rich text changes (e.g. the page's path), to look for blocks again. */
  contentKey?: string;
}

export function CodeBlockCopyButtons({ containerRef, contentKey }: CodeBlockCopyButtonsProps) {
  const [figures, setFigures] = useState<Element[]>([]);
  const loaded = useLazyPart(copyButton);
  useEffect(() => {
    const found = [...(containerRef.current?.querySelectorAll('figure[data-code-block]') ?? [])];
    setFigures(found);
    if (found.length > 0) void copyButton.load().catch(() => undefined);
  }, [containerRef, contentKey]);
  if (!loaded) return null;
  const { CopyButton, codeBlockText } = loaded;
  return <>{figures.map((figure, i) => createPortal(<CopyButton text={() => codeBlockText(figure)} />, figure, `copy-${i}`))}</>;
}
