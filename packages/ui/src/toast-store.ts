/**
 * The toast list (docs/spec.md §4, §9): at most TOASTS_KEPT_MAX kept (the oldest goes), and a closed
 * toast is removed TOAST_REMOVE_DELAY_MS later so its exit animation can finish.
 * A plain store, so `toast.add()` works from anywhere: event handlers, fetch errors, other stores.
 */

/** docs/spec.md §9. */
export const TOAST_DEFAULT_DURATION_MS = 5000;
export const TOASTS_KEPT_MAX = 5;
export const TOAST_REMOVE_DELAY_MS = 200;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_VIEWPORT_HOTKEY = 'F8';
export const TOASTER_DEFAULT_POSITION = 'bottom-right';
export const CLOSE_ACTION_LABEL = 'Close';

export type ToastColor = 'primary' | 'secondary' | 'success' | 'info' | 'warning' | 'error' | 'neutral';

export interface ToastAction {
  label: string;
  /** Read by screen readers in place of the toast (Radix requires it): what the action does. */
  altText?: string;
  onClick: () => void;
}

export interface ToastInput {
  id?: string;
  title?: string;
  description?: string;
  color?: ToastColor;
  /** An icon name, `collection:name`. */
  icon?: string;
  actions?: ToastAction[];
  /** Milliseconds before it closes by itself; Infinity keeps it open. Default TOAST_DEFAULT_DURATION_MS. */
  duration?: number;
  /** Show the close button (default true). */
  close?: boolean;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export interface ToastStoreOptions {
  max?: number;
  removeDelayMs?: number;
}

export function createToastStore({ max = TOASTS_KEPT_MAX, removeDelayMs = TOAST_REMOVE_DELAY_MS }: ToastStoreOptions = {}) {
  let toasts: readonly ToastItem[] = [];
  let counter = 0;
  const listeners = new Set<() => void>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  function set(next: readonly ToastItem[]): void {
    toasts = next;
    for (const listener of listeners) listener();
  }

  function add(input: ToastInput): ToastItem {
    const id = input.id ?? `${Date.now()}-${(counter++).toString(36)}`;
    const item: ToastItem = { ...input, id, open: true };
    const others = toasts.filter((t) => t.id !== id);
    set(max <= 0 ? [] : [...others, item].slice(-max));
    return item;
  }

  function update(id: string, change: Partial<ToastInput>): void {
    set(toasts.map((t) => (t.id === id ? { ...t, ...change, id } : t)));
  }

  /** Closes the toast now and drops it from the list after the removal delay. */
  function remove(id: string): void {
    if (!toasts.some((t) => t.id === id && t.open)) return;
    set(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
    clearTimeout(timers.get(id));
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        set(toasts.filter((t) => t.id !== id || t.open));
      }, removeDelayMs),
    );
  }

  function clear(): void {
    for (const t of toasts) remove(t.id);
  }

  return {
    add,
    update,
    remove,
    clear,
    getSnapshot: (): readonly ToastItem[] => toasts,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;
