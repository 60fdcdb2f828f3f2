/**
 * A tooltip on Radix: it opens after TOOLTIP_DELAY_MS (700 ms), or at once when another tooltip
 * closed less than TOOLTIP_SKIP_DELAY_MS (300 ms) ago.
 *
 * Radix and floating-ui stay out of the first load: until the pointer enters, a focus or a press
 * reaches the trigger, the trigger renders alone (the server's HTML is exactly that). The first of
 * those starts loading ./tooltip-radix.js; when it is in, the trigger is drawn again inside Radix,
 * keeping its focus, and a pointer still on it sees its tooltip when the delay (counted from the
 * pointer's arrival) ends, as if Radix had been there all along.
 */
import { cloneElement, useRef, type FocusEvent, type PointerEvent, type ReactElement, type ReactNode, type Ref } from 'react';
import { lazyPart, loadingOn, useLazyPart } from './lazy-part.js';
import type { TooltipHandoff } from './tooltip-handoff.js';

export interface TooltipProps {
  /** The tooltip's text or content. */
  text: ReactNode;
  /** The element it describes; it must accept a ref and event handlers (a button, a link). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

export const tooltipPart = lazyPart(() => import('./tooltip-radix.js'));

interface TriggerProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
}

function setRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

export function Tooltip({ text, children, side = 'top' }: TooltipProps) {
  const trigger = useRef<HTMLElement | null>(null);
  const hoveredSince = useRef<number | null>(null);
  const handoff = useRef<TooltipHandoff>({ hoveredSince: null, focused: false });
  const Radix = useLazyPart(tooltipPart, () => {
    const element = trigger.current;
    handoff.current = {
      hoveredSince: element?.matches(':hover') ? hoveredSince.current : null,
      focused: element !== null && element === document.activeElement,
    };
  });
  if (Radix) {
    return (
      <Radix.RadixTooltip text={text} side={side} handoff={handoff.current}>
        {children}
      </Radix.RadixTooltip>
    );
  }
  const own = children.props as TriggerProps;
  return cloneElement(children as ReactElement<TriggerProps>, {
    ref: (element: HTMLElement | null) => {
      trigger.current = element;
      setRef(own.ref, element);
    },
    onPointerEnter: loadingOn(tooltipPart, (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType !== 'touch') hoveredSince.current = performance.now();
      own.onPointerEnter?.(event);
    }),
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      hoveredSince.current = null;
      own.onPointerLeave?.(event);
    },
    onPointerDown: loadingOn(tooltipPart, own.onPointerDown),
    onFocus: loadingOn(tooltipPart, own.onFocus),
  });
}
