/** The app-wide toast API: `toast.add({ title, description, color, icon, actions })` from anywhere. */
import { useSyncExternalStore } from 'react';
import { createToastStore, type ToastItem } from './toast-store.js';

export type { ToastAction, ToastColor, ToastInput, ToastItem } from './toast-store.js';

export const toast = createToastStore();

const NO_TOASTS: readonly ToastItem[] = [];

export function useToasts(): readonly ToastItem[] {
  return useSyncExternalStore(toast.subscribe, toast.getSnapshot, () => NO_TOASTS);
}

/** For components that prefer a hook, as Nuxt UI's `useToast()`. */
export function useToast(): typeof toast {
  return toast;
}
