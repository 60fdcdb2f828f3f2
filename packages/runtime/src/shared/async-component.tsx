/**
 * Async components (docs/spec.md §9, Vue's defineAsyncComponent): the component's code loads on first
 * render, and its loading fallback appears only if loading takes longer than 200 ms, so fast
 * loads never flash a spinner. After hydration the load is tracked in state, not Suspense:
 * React holds a revealed Suspense boundary for 300 ms, which would show the fallback of every
 * load. On the server and while hydrating, Suspense keeps the server's HTML. Browser-safe.
 */
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { HYDRATED_ATTRIBUTE } from './hydration.js';

/** docs/spec.md §9. */
export const ASYNC_COMPONENT_DELAY_MS = 200;

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

/** A thenable already fulfilled: `then` calls back at once. */
function settled<T>(value: T): Promise<T> {
  return { then: (onFulfilled: (value: T) => unknown) => settled(onFulfilled(value)) } as unknown as Promise<T>;
}

const hydrated = () => typeof document !== 'undefined' && document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE);

export function asyncComponent<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options: AsyncComponentOptions = {},
): ComponentType<P> {
  const delay = options.delay ?? ASYNC_COMPONENT_DELAY_MS;
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const start = () =>
    (pending ??= load().then(
      (module) => (loaded = module.default),
      (error: unknown) => {
        pending = null; // a later mount tries again
        throw error;
      },
    ));
  // A module already in is handed over synchronously (React's lazy reads a thenable that resolves
  // in `then` without suspending): a render never waits a turn for code it holds.
  const Lazy = lazy(() => (loaded ? settled({ default: loaded }) : start().then((component) => ({ default: component }))));
  // The server holds every chunk: loading them at once means no render suspends on one, so the
  // HTML a first request gets is the same as any later request's (a suspended boundary streamed
  // apart is HTML hydration does not expect).
  if (typeof document === 'undefined') start().catch(() => undefined);

  function AsyncComponent(props: P) {
    const [viaState] = useState(hydrated);
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    // A delay of 0 shows the loading view at once (e.g. a stand-in that must not blink out).
    const [slow, setSlow] = useState(delay <= 0);
    const [failed, setFailed] = useState<{ error: unknown } | null>(null);
    useEffect(() => {
      if (!viaState || Component) return;
      let live = true;
      const timer = setTimeout(() => live && setSlow(true), delay);
      start().then(
        (done) => live && setComponent(() => done),
        (error: unknown) => live && setFailed({ error }),
      );
      return () => {
        live = false;
        clearTimeout(timer);
      };
    }, [viaState, Component]);
    // A failed load goes to the nearest error boundary, as a failed lazy component would.
    if (failed) throw failed.error;
    if (viaState) {
      if (Component) return <Component {...props} />;
      return slow && options.loading !== undefined ? <>{options.loading}</> : null;
    }
    // On the server and while hydrating, always the boundary, loaded or not: the server's HTML has
    // its markers whether the code was in already or not, and hydration must meet the same tree.
    return (
      <Suspense fallback={options.loading === undefined ? null : <DelayedFallback delay={delay}>{options.loading}</DelayedFallback>}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  AsyncComponent.displayName = 'AsyncComponent';
  return AsyncComponent;
}
