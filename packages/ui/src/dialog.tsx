/**
 * A dialog on Radix: closes on Escape, a pointer press outside, or (when not modal) focus moving
 * outside; a modal dialog keeps focus inside instead. Its close button is labelled 'Close'.
 */
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';
import { CLOSE_ACTION_LABEL } from './toast-store.js';
import { Icon } from './icon.js';

export interface DialogProps {
  title: string;
  description?: string;
  /** The element that opens it (a button). */
  trigger?: ReactElement;
  children?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  modal?: boolean;
}

export function Dialog({ title, description, trigger, children, open, onOpenChange, modal = true }: DialogProps) {
  const control = open === undefined ? {} : { open };
  return (
    <RadixDialog.Root {...control} {...(onOpenChange ? { onOpenChange } : {})} modal={modal}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        {modal ? <RadixDialog.Overlay className="ui-dialog-backdrop" /> : null}
        <RadixDialog.Content className="ui-overlay ui-dialog" {...(description ? {} : { 'aria-describedby': undefined })}>
          <div className="mb-4 flex items-start justify-between gap-4">
            <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
            <RadixDialog.Close aria-label={CLOSE_ACTION_LABEL} className="ui-icon-button -m-1">
              <Icon name="lucide:x" className="size-5" />
            </RadixDialog.Close>
          </div>
          {description ? <RadixDialog.Description className="mb-4 text-sm text-muted">{description}</RadixDialog.Description> : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
