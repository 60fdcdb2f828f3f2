/**
 * The shell every page stands in (docs/spec.md §2): toasts and the colour mode.
 * Usage: `<AppShell forcedColorMode={page.colorMode}>{page}</AppShell>` around the router outlet.
 * The default layout's header places `<ColorModeSwitch />` (./color-mode-switch.js). Tooltips need
 * no provider here: each brings its own when it loads (./tooltip-radix.tsx), sharing the skip delay.
 * The server side of colour mode is in runtime/shared/color-mode.ts: `colorModeHeadScript()` first in
 * <head>, and the class from `colorModeHtmlAttributes(cookie, forced)` on <html>.
 */
import type { ReactNode } from 'react';
import type { ColorModePreference } from '@tern/runtime/shared/color-mode';
import { useColorMode, useForcedColorMode } from '@tern/runtime/shared/color-mode-provider';
import { Toaster } from './toaster.js';
import type { ToasterPosition } from './toaster-position.js';

export interface AppShellProps {
  children?: ReactNode;
  /** The current page's forced colour mode; `system` is warned about and ignored. */
  forcedColorMode?: ColorModePreference | null;
  toasterPosition?: ToasterPosition;
}

/**
 * Keeps the colour-mode store subscribed, so the page follows the system's changes live. The
 * switch's menu did this once; it now loads on first use (./color-mode-switch.tsx).
 */
function FollowColorMode() {
  useColorMode();
  return null;
}

export function AppShell({ children, forcedColorMode, toasterPosition }: AppShellProps) {
  useForcedColorMode(forcedColorMode);
  return (
    <>
      {children}
      <FollowColorMode />
      <Toaster {...(toasterPosition ? { position: toasterPosition } : {})} />
    </>
  );
}
