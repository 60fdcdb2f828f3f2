/**
 * The colour-mode menu on Radix (Light, Dark, System): the heavy half of ./color-mode-switch.tsx,
 * loaded as an async component when the visitor first reaches for the switch.
 */
import { DropdownMenu } from 'radix-ui';
import { useLayoutEffect, useRef } from 'react';
import { useColorMode } from '@tern/runtime/shared/color-mode-provider';
import { isColorModePreference, type ColorModePreference } from '@tern/runtime/shared/color-mode';
import { ColorModeIcons, type ColorModeHandoff } from './color-mode-trigger.js';
import lateIcons from 'virtual:icon-bundle/late';
import { addIcons, Icon } from './icon.js';
import { Tooltip } from './tooltip.js';

// This part draws icons only after hydration: they came with it (icons-registry.ts).
addIcons(lateIcons);

const CHOICES: { value: ColorModePreference; label: string; icon: string }[] = [
  { value: 'light', label: 'Light', icon: 'lucide:sun' },
  { value: 'dark', label: 'Dark', icon: 'lucide:moon' },
  { value: 'system', label: 'System', icon: 'lucide:monitor' },
];

export interface ColorModeMenuProps {
  className?: string | undefined;
  /** What the stand-in trigger saw before this loaded: a press to honour, a focus to keep. */
  handoff: ColorModeHandoff;
}

export default function ColorModeMenu({ className, handoff }: ColorModeMenuProps) {
  const { preference, known, setPreference } = useColorMode();
  const trigger = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (handoff.focused && !handoff.open) trigger.current?.focus({ preventScroll: true });
  }, [handoff]);
  return (
    <DropdownMenu.Root defaultOpen={handoff.open}>
      <Tooltip text="Colour mode" side="bottom">
        <DropdownMenu.Trigger
          ref={trigger}
          aria-label="Colour mode"
          data-color-mode-switch=""
          className={`ui-icon-button ${className ?? ''}`}
        >
          <ColorModeIcons />
        </DropdownMenu.Trigger>
      </Tooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="ui-overlay min-w-36 p-1">
          <DropdownMenu.RadioGroup
            value={known ? preference : ''}
            onValueChange={(value) => (isColorModePreference(value) ? setPreference(value) : undefined)}
          >
            {CHOICES.map((choice) => (
              <DropdownMenu.RadioItem key={choice.value} value={choice.value} className="ui-menu-item">
                <Icon name={choice.icon} className="size-4" />
                <span className="flex-1">{choice.label}</span>
                <DropdownMenu.ItemIndicator>
                  <Icon name="lucide:check" className="size-4 text-primary" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
