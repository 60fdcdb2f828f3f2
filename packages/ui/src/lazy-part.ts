/**
 * A part of the UI whose code loads on first use (an interaction-only chunk: a menu, a tooltip,
 * the toasts' machinery) rather than with the page. `part.load()` starts the import (call it on
 * hover, focus or pointer down, before the click that needs it); `useLazyPart(part)` re-renders a
 * component with the module once it is in. While hydrating it gives `undefined`, as the server
 * did, so the server's HTML (a same-looking static stand-in) is kept until the part arrives, and
 * a press under way when it arrives ends on the stand-in.
 */
import { useEffect, useState } from 'react';
import { HYDRATED_ATTRIBUTE } from '@tern/runtime/shared/hydration';

export interface LazyPart<M> {
  /** Starts loading (once; a failed load may be retried) and resolves with the module. */
  load(): Promise<M>;
  /** The module if it has loaded. */
  current(): M | undefined;
  /** Calls `listener` once the module is in (at once if it is); returns an unsubscribe. */
  whenLoaded(listener: (module: M) => void): () => void;
}

export function lazyPart<M>(importer: () => Promise<M>): LazyPart<M> {
  let module: M | undefined;
  let pending: Promise<M> | null = null;
  const listeners = new Set<(module: M) => void>();
  return {
    load() {
      pending ??= importer().then(
        (loaded) => {
          module = loaded;
          for (const listener of [...listeners]) listener(loaded);
          listeners.clear();
          return loaded;
        },
        (error: unknown) => {
          pending = null; // the next interaction tries again
          throw error;
        },
      );
      return pending;
    },
    current: () => module,
    whenLoaded(listener) {
      if (module !== undefined) {
        listener(module);
        return () => undefined;
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const hydrated = () => typeof document !== 'undefined' && document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE);

/**
 * The part's module once loaded, else `undefined`. `beforeSwap` runs just before the re-render
 * that replaces the stand-in, while the stand-in is still in the document (to note its focus).
 */
export function useLazyPart<M>(part: LazyPart<M>, beforeSwap?: () => void): M | undefined {
  const [module, setModule] = useState<M | undefined>(() => (hydrated() ? part.current() : undefined));
  useEffect(() => {
    if (module !== undefined) return;
    return part.whenLoaded((loaded) => {
      const swap = () => {
        beforeSwap?.();
        setModule(() => loaded);
      };
      // A press under way (the page is :active from its down to its up, by pointer or Space) ends
      // on the stand-in: swapped mid-press, it would be a new element, and the press would click
      // neither. The part often arrives just then, its load started by the pointer's arrival. The
      // click ends every press (on what the down and up share), then the swap follows it.
      if (!document.documentElement.matches(':active')) return swap();
      addEventListener('click', () => setTimeout(swap), { once: true, capture: true });
    });
    // beforeSwap is the first render's closure: it only reads refs, which stay the same.
  }, [part, module]);
  return module;
}

/** Starts loading `part` when the returned handler runs, then calls the element's own handler. */
export function loadingOn<E>(part: LazyPart<unknown>, own?: (event: E) => void): (event: E) => void {
  return (event) => {
    void part.load().catch(() => undefined); // a failed load leaves the stand-in; the next try retries
    own?.(event);
  };
}
