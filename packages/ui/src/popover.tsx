/**
 * A popover on Radix: closes on Escape, a pointer press outside, or focus moving outside
 * (non-modal by default, so the rest of the page stays usable).
 */
import { Popover as RadixPopover } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';

export interface PopoverProps {
  trigger: ReactElement;
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
  modal?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export function Popover({ trigger, children, side = 'bottom', modal = false, open, onOpenChange }: PopoverProps) {
  return (
    <RadixPopover.Root modal={modal} {...(open === undefined ? {} : { open })} {...(onOpenChange ? { onOpenChange } : {})}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content side={side} sideOffset={6} className="ui-overlay p-3 text-sm">
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
