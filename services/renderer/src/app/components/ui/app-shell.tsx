/**
 * The shell every page stands in (docs/spec.md §2): toasts, the tooltip provider and the colour mode.
 * Usage: `<AppShell forcedColorMode={page.colorMode}>{page}</AppShell>` around the router outlet.
 * The default layout's header places `<ColorModeSwitch />` (./color-mode-switch.js).
 * The server side of colour mode is in runtime/shared/color-mode.ts: `colorModeHeadScript()` first in
 * <head>, and the class from `colorModeHtmlAttributes(cookie, forced)` on <html>.
 */
import { Tooltip } from 'radix-ui';
import type { ReactNode } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './tooltip.js';
import type { ColorModePreference } from '../../../runtime/shared/color-mode.js';
import { useForcedColorMode } from '../../../runtime/shared/color-mode-provider.js';
import { Toaster, type ToasterPosition } from './toaster.js';

export interface AppShellProps {
  children?: ReactNode;
  /** The current page's forced colour mode; `system` is warned about and ignored. */
  forcedColorMode?: ColorModePreference | null;
  toasterPosition?: ToasterPosition;
}

export function AppShell({ children, forcedColorMode, toasterPosition }: AppShellProps) {
  useForcedColorMode(forcedColorMode);
  return (
    <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <Toaster {...(toasterPosition ? { position: toasterPosition } : {})}>{children}</Toaster>
    </Tooltip.Provider>
  );
}
