/** What the stand-in tooltip (tooltip.tsx) and the lazily loaded Radix one (tooltip-radix.tsx) share. */

/** docs/spec.md §9. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** What the stand-in trigger was doing when Radix arrived. */
export interface TooltipHandoff {
  /** performance.now() when the pointer entered, if it is still on the trigger. */
  hoveredSince: number | null;
  focused: boolean;
}
