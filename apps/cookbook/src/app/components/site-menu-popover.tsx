/**
 * The header's menu on Radix's Popover: the heavy half of ./site-menu.tsx, loaded when the visitor
 * first reaches for the menu button. Not modal, so SPEC §4's three ways out all close it: Escape, a
 * press outside, focus moving outside; focus then returns to the button. A navigation closes it too.
 */
import { Popover } from 'radix-ui';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/** What the server's disclosure was doing when the popover took its place (site-menu.tsx). */
export interface SiteMenuHandoff {
  open: boolean;
  focused: boolean;
}

export function SiteMenuPopover({ handoff, children }: { handoff: SiteMenuHandoff; children: ReactNode }) {
  const [open, setOpen] = useState(handoff.open);
  const trigger = useRef<HTMLButtonElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { key } = useLocation();
  const shownAt = useRef(key);
  useEffect(() => {
    if (key === shownAt.current) return;
    shownAt.current = key;
    setOpen(false);
  }, [key]);
  // The disclosure it replaced had focus: the button keeps it (an open menu takes it itself).
  useLayoutEffect(() => {
    if (handoff.focused && !handoff.open) trigger.current?.focus({ preventScroll: true });
  }, [handoff]);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger ref={trigger} aria-label="Menu" className="site-menu ui-icon-button">
        <i className="site-menu-icon" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          ref={content}
          aria-label="Menu"
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className="site-menu-list ui-overlay"
          // Radix would focus the first field it finds, the search (links it skips), and a phone would
          // raise its keyboard: the panel takes focus instead, and Tab goes on to its first link.
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            content.current?.focus();
          }}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
