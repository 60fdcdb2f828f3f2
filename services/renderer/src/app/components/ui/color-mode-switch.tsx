/**
 * The colour-mode switch for the default layout's header: a menu of Light, Dark and System.
 * The trigger's sun/moon follows the class on <html> through CSS, so it never flips after
 * hydration.
 */
import { DropdownMenu } from 'radix-ui';
import { useColorMode } from '../../../runtime/shared/color-mode-provider.js';
import { isColorModePreference, type ColorModePreference } from '../../../runtime/shared/color-mode.js';
import { Icon } from './icon.js';

const CHOICES: { value: ColorModePreference; label: string; icon: string }[] = [
  { value: 'light', label: 'Light', icon: 'lucide:sun' },
  { value: 'dark', label: 'Dark', icon: 'lucide:moon' },
  { value: 'system', label: 'System', icon: 'lucide:monitor' },
];

export function ColorModeSwitch({ className }: { className?: string }) {
  const { preference, known, setPreference } = useColorMode();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="Colour mode" data-color-mode-switch="" className={`ui-icon-button ${className ?? ''}`}>
        <Icon name="lucide:sun" className="size-5 dark:hidden" />
        <Icon name="lucide:moon" className="hidden size-5 dark:inline-block" />
      </DropdownMenu.Trigger>
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
