/**
 * The Radix half of ./tooltip.tsx, loaded on first interaction. Each tooltip has its own Radix
 * provider (a provider around the whole app would put Radix in the first load); the skip delay
 * that a shared provider gives is kept here instead, in one store for every tooltip.
 */
import { Tooltip as Radix } from 'radix-ui';
import { useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, type TooltipHandoff } from './tooltip-handoff.js';

/** True while a tooltip is open and for TOOLTIP_SKIP_DELAY_MS after the last one closed. */
const skipDelay = (() => {
  let active = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const set = (next: boolean) => {
    if (active === next) return;
    active = next;
    for (const listener of listeners) listener();
  };
  return {
    get: () => active,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    opened() {
      clearTimeout(timer);
      set(true);
    },
    closed() {
      clearTimeout(timer);
      timer = setTimeout(() => set(false), TOOLTIP_SKIP_DELAY_MS);
    },
  };
})();

const inactive = () => false;

export interface RadixTooltipProps {
  text: ReactNode;
  children: ReactElement;
  side: 'top' | 'right' | 'bottom' | 'left';
  handoff: TooltipHandoff;
}

export function RadixTooltip({ text, children, side, handoff }: RadixTooltipProps) {
  const skipping = useSyncExternalStore(skipDelay.subscribe, skipDelay.get, inactive);
  // The first opening waits only what is left of the delay since the pointer arrived.
  const [firstDelay, setFirstDelay] = useState(() =>
    handoff.hoveredSince === null ? null : Math.max(0, TOOLTIP_DELAY_MS - (performance.now() - handoff.hoveredSince)),
  );
  const trigger = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const element = trigger.current;
    if (!element) return;
    if (handoff.focused) element.focus({ preventScroll: true });
    // Radix starts its delay on a pointer move over the trigger; the pointer is already there.
    else if (handoff.hoveredSince !== null) element.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse' }));
  }, [handoff]);
  const delay = skipping ? 0 : (firstDelay ?? TOOLTIP_DELAY_MS);
  return (
    <Radix.Provider delayDuration={delay} skipDelayDuration={0}>
      <Radix.Root
        delayDuration={delay}
        onOpenChange={(open) => {
          setFirstDelay(null);
          if (open) skipDelay.opened();
          else skipDelay.closed();
        }}
      >
        <Radix.Trigger asChild ref={trigger}>
          {children}
        </Radix.Trigger>
        <Radix.Portal>
          <Radix.Content side={side} sideOffset={6} className="ui-tooltip" data-ui-tooltip="">
            {text}
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
