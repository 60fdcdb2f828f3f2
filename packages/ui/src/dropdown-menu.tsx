/**
 * A dropdown menu on Radix: keyboard navigation, typeahead, and it closes on Escape, a pointer
 * press outside, or (when not modal) focus moving outside.
 */
import { DropdownMenu as RadixDropdownMenu } from 'radix-ui';
import type { ReactElement } from 'react';
import { Icon } from './icon.js';

export interface DropdownMenuItem {
  label: string;
  icon?: string;
  onSelect?: () => void;
  disabled?: boolean;
}

export interface DropdownMenuProps {
  trigger: ReactElement;
  items: DropdownMenuItem[];
  align?: 'start' | 'center' | 'end';
  modal?: boolean;
}

export function DropdownMenu({ trigger, items, align = 'start', modal = true }: DropdownMenuProps) {
  return (
    <RadixDropdownMenu.Root modal={modal}>
      <RadixDropdownMenu.Trigger asChild>{trigger}</RadixDropdownMenu.Trigger>
      <RadixDropdownMenu.Portal>
        <RadixDropdownMenu.Content align={align} sideOffset={6} className="ui-overlay min-w-40 p-1">
          {items.map((item) => (
            <RadixDropdownMenu.Item
              key={item.label}
              {...(item.onSelect ? { onSelect: item.onSelect } : {})}
              {...(item.disabled ? { disabled: true } : {})}
              className="ui-menu-item"
            >
              {item.icon ? <Icon name={item.icon} className="size-4" /> : null}
              {item.label}
            </RadixDropdownMenu.Item>
          ))}
        </RadixDropdownMenu.Content>
      </RadixDropdownMenu.Portal>
    </RadixDropdownMenu.Root>
  );
}
