/**
 * Async components (SPEC §9, Vue's defineAsyncComponent): the component's code loads on first
 * render, and its loading fallback appears only if loading takes longer than 200 ms, so fast
 * loads never flash a spinner. Browser-safe (on the server the fallback is never shown).
 */
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { ASYNC_COMPONENT_DELAY_MS } from '../../../../lib/constants.js';

export interface AsyncComponentOptions {
  /** Shown while loading, once `delay` has passed. */
  loading?: ReactNode;
  delay?: number;
}

/** Renders `children` only after `delay` ms: the fallback of a slow load. */
export function DelayedFallback({ delay = ASYNC_COMPONENT_DELAY_MS, children }: { delay?: number; children: ReactNode }) {
  const [shown, setShown] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setShown(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  return shown ? <>{children}</> : null;
}

export function asyncComponent<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options: AsyncComponentOptions = {},
): ComponentType<P> {
  const Lazy = lazy(load);
  const delay = options.delay ?? ASYNC_COMPONENT_DELAY_MS;
  function AsyncComponent(props: P) {
    return (
      <Suspense fallback={options.loading === undefined ? null : <DelayedFallback delay={delay}>{options.loading}</DelayedFallback>}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  AsyncComponent.displayName = 'AsyncComponent';
  return AsyncComponent;
}
