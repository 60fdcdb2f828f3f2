/**
 * A part of a long server-rendered page that keeps its server HTML through the page's hydration and
 * hydrates on its own, later: when it comes near the viewport, or at once when the visitor points
 * at, presses, clicks or focuses something in it. Until then it is the server's HTML, which reads
 * and scrolls the same; only its handlers are missing, and the first interaction brings them
 * before it is dispatched.
 *
 * How: the part sits in a Suspense boundary whose content, in the page's first (hydrating) render
 * only, suspends on a promise that the events above resolve. React then leaves the boundary
 * dehydrated, commits the rest of the page, and hydrates the boundary in a render and commit of its
 * own once the promise resolves. The interaction listeners are on `document` in the capture phase,
 * ahead of React's own on the app's root, so that by the time React sees the event the promise has
 * resolved (microtasks run between listeners) and its selective hydration can hydrate the part
 * synchronously and deliver the event to it. Client renders (navigations) never suspend: the part
 * renders at once, as any other; new content for a part still waiting (a data reload) opens it.
 */
import { Suspense, use, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import { PersonalContext } from '@tern/runtime/shared/personal';

/** How far below (or above) the viewport a part starts hydrating, to be ready when it arrives. */
export const HYDRATE_NEAR_VIEWPORT = '200px 0px';
const INTERACTIONS = ['pointerover', 'pointerdown', 'focusin', 'keydown', 'click'] as const;

interface HydrationGate {
  promise: Promise<void>;
  /** Opens the gate now and stops watching (again: nothing more). */
  open: () => void;
}

/** One gate per element id, made during the first render and kept (a retry must find it settled). */
const gates = new Map<string, HydrationGate>();

function gateOf(elementId: string): HydrationGate {
  let gate = gates.get(elementId);
  if (gate) return gate;
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => (settle = resolve));
  const element = document.getElementById(elementId);
  // Not in the server's HTML (nothing to keep): render it now.
  if (!element) settle();
  const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && open(), {
    rootMargin: HYDRATE_NEAR_VIEWPORT,
  });
  const onInteraction = (event: Event) => element!.contains(event.target as Node) && open();
  function open(): void {
    observer.disconnect();
    for (const type of INTERACTIONS) document.removeEventListener(type, onInteraction, true);
    settle();
  }
  if (element) {
    observer.observe(element);
    for (const type of INTERACTIONS) document.addEventListener(type, onInteraction, true);
  }
  gate = { promise, open };
  gates.set(elementId, gate);
  return gate;
}

const noSubscription = () => () => undefined;

function Gate({ elementId, children }: { elementId: string; children: ReactNode }) {
  // React reads the server snapshot in every render that hydrates, including a boundary's own
  // later hydration (after the page's, so the page's `data-hydrated` cannot tell), and the client
  // snapshot in client renders. On the server nothing waits.
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  if (hydrating && typeof document !== 'undefined') use(gateOf(elementId).promise);
  return children;
}

export interface HydrateWhenVisibleProps {
  /** The id of the part's outermost element in the server's HTML (what is watched). */
  elementId: string;
  children: ReactNode;
}

export function HydrateWhenVisible({ elementId, children }: HydrateWhenVisibleProps) {
  const [hydratedWith] = useState(children);
  // The same for a new visitor state (a sign-in, a save: runtime/shared/personal.tsx), which its personal parts read.
  const personal = useContext(PersonalContext);
  const [hydratedWithPersonal] = useState(personal);
  // New content while the part still waits (the page's data was reloaded): the part hydrates now.
  // React would otherwise hold that whole update (a transition) until the part came into view,
  // since it hydrates a waiting part before updating it. Opening twice is harmless.
  if ((children !== hydratedWith || personal !== hydratedWithPersonal) && typeof document !== 'undefined') gates.get(elementId)?.open();
  // The fallback is never shown: only a hydrating render suspends, and React keeps the server's
  // HTML for a boundary that suspends while hydrating.
  return (
    <Suspense fallback={null}>
      <Gate elementId={elementId}>{children}</Gate>
    </Suspense>
  );
}
