/**
 * A tooltip on Radix: it opens after TOOLTIP_DELAY_MS (700 ms), or at once when another
 * tooltip closed less than TOOLTIP_SKIP_DELAY_MS (300 ms) ago; both come from AppShell's provider.
 */
import { Tooltip as RadixTooltip } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';

/** docs/spec.md §9. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export interface TooltipProps {
  /** The tooltip's text or content. */
  text: ReactNode;
  /** The element it describes; it must accept a ref and event handlers (a button, a link). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

export function Tooltip({ text, children, side = 'top' }: TooltipProps) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content side={side} sideOffset={6} className="ui-tooltip" data-ui-tooltip="">
          {text}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
