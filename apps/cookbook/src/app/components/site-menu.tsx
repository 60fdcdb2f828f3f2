/**
 * The narrow screen's menu of the header's controls (hidden from `lg` up, where the bar shows
 * them). The server draws a <details> disclosure, which opens and closes without JavaScript. The
 * Radix popover (site-menu-popover.tsx: Escape, a press or focus outside close it, focus returns to
 * the button) is not first-load code: it loads when the visitor reaches for the button and takes
 * the disclosure's place, open if the visitor pressed it, focused if the disclosure was.
 */
import { lazyPart, useLazyPart } from '@tern/ui/lazy-part';
import { useRef, type ReactNode } from 'react';
import type { SiteMenuHandoff } from './site-menu-popover.js';

const popover = lazyPart(() => import('./site-menu-popover.js'));

export function SiteMenu({ children }: { children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  const handoff = useRef<SiteMenuHandoff>({ open: false, focused: false });
  const loaded = useLazyPart(popover, () => {
    const element = details.current;
    handoff.current.open ||= !!element?.open;
    handoff.current.focused = !!element?.contains(document.activeElement);
  });
  if (loaded) return <loaded.SiteMenuPopover handoff={handoff.current}>{children}</loaded.SiteMenuPopover>;

  // A press (pointer down, or the click of Enter and Space) opens the popover once it is in, even
  // if it arrives between the pointer's down and up; should it fail to load, the disclosure opens.
  const reach = (open: boolean) => {
    handoff.current.open ||= open;
    popover.load().catch(() => {
      if (open && details.current) details.current.open = true;
    });
  };
  return (
    <details ref={details} className="site-menu" onPointerEnter={() => reach(false)} onFocus={() => reach(false)}>
      <summary
        aria-label="Menu"
        className="ui-icon-button"
        onPointerDown={(event) => reach(event.button === 0)}
        onClick={(event) => {
          event.preventDefault();
          reach(true);
        }}
      >
        <i className="site-menu-icon" />
      </summary>
      <div className="site-menu-list site-menu-panel ui-overlay">{children}</div>
    </details>
  );
}
