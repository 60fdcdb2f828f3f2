/** The colour-mode trigger's face and state, shared by the stand-in (color-mode-switch.tsx) and the menu. */
import { Icon } from './icon.js';

/** What the stand-in trigger was doing when the menu arrived. */
export interface ColorModeHandoff {
  /** The visitor pressed the stand-in: open the menu when it arrives. */
  open: boolean;
  focused: boolean;
}

/** The trigger's face: a sun in light mode, a moon in dark (by the class on <html>). */
export function ColorModeIcons() {
  return (
    <>
      <Icon name="lucide:sun" className="size-5 dark:hidden" />
      <Icon name="lucide:moon" className="ui-dark-only size-5" />
    </>
  );
}
