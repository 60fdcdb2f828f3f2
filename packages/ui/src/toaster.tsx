/**
 * Where toasts show. Radix Toast is not in the first load: it is loaded when the first toast is
 * added, or earlier, on the visitor's first press of a pointer or key (most toasts answer one),
 * so it is usually in before it is needed. Until then nothing is rendered, there being nothing
 * to show (the F8 viewport exists once there is a toast to reach).
 */
import { useEffect } from 'react';
import { TOAST_DEFAULT_DURATION_MS, TOASTER_DEFAULT_POSITION } from './toast-store.js';
import { lazyPart, useLazyPart } from './lazy-part.js';
import { useToasts } from './toast.js';
import type { ToasterPosition } from './toaster-position.js';

export const toasterPart = lazyPart(() => import('./toaster-radix.js'));

export interface ToasterProps {
  position?: ToasterPosition;
  duration?: number;
}

const PRESSES = ['pointerdown', 'keydown'] as const;

export function Toaster({ position = TOASTER_DEFAULT_POSITION, duration = TOAST_DEFAULT_DURATION_MS }: ToasterProps) {
  const toasts = useToasts();
  const Radix = useLazyPart(toasterPart);
  const wanted = toasts.length > 0;
  useEffect(() => {
    if (Radix) return;
    if (wanted) {
      void toasterPart.load().catch(() => undefined);
      return;
    }
    const early = () => void toasterPart.load().catch(() => undefined);
    for (const type of PRESSES) document.addEventListener(type, early, { capture: true, once: true, passive: true });
    return () => {
      for (const type of PRESSES) document.removeEventListener(type, early, { capture: true });
    };
  }, [Radix, wanted]);
  return Radix ? <Radix.RadixToaster position={position} duration={duration} /> : null;
}
