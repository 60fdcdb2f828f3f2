/**
 * Personal parts ("holes", docs/decisions/personal-holes.md): what differs per visitor on a page
 * that is otherwise the same for everyone. A site defines its parts once (`definePersonal`) and
 * draws each with `<Part name props>`: the part's content sits between two inert, byte-exact
 * markers, so the gateway can serve the shared cache entry (drawn with the anonymous state) to a
 * signed-in visitor and splice in the renderer's per-visitor HTML of each part. React renders the
 * same markers in the browser, and the visitor's state (the JSON the gateway splices into the
 * document's end) makes hydration see what the HTML shows. Browser-safe and small: first-load JS.
 */
import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';

/** The id of the JSON script that carries the visitor's state (only for a non-anonymous one). */
export const PERSONAL_ELEMENT_ID = '__PERSONAL__';
/** The name of the hole at the document's end that carries that script. */
export const STATE_HOLE = '$state';
/** The marker that ends every part (the start is `<template data-hole="{name}" data-props="{json}">`). */
export const HOLE_END = '<template data-hole-end=""></template>';
/** Where the browser asks for the visitor's state (GET) and the gateway for their parts (POST). */
export const PERSONAL_PATH = '/_personal';

/** Draws a part from the visitor's state and the part's props (JSON: they travel in its marker). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each part's own props
export type PartDraw<S, P = any> = (state: S, props: P) => ReactNode;

export interface PersonalDefinition<S = unknown> {
  /** The state every visitor without a session gets, and the shared cache entry is drawn with. */
  anonymous: S;
  /**
   * Each part by name, as `part()` registered it when its module loaded: a part a few pages use is
   * defined beside them (out of the other pages' first load); the server loads every page module
   * before it draws parts alone.
   */
  parts: Record<string, PartDraw<S>>;
}

/** The state of this render (server: the request's; browser: the store's, through `PersonalRoot`). */
export const PersonalContext = createContext<unknown>(undefined);

/**
 * `definePersonal({ anonymous })`, then `part(name, draw)` for each part: the component that draws
 * it in a page, between its markers. The same `draw` draws it alone for the gateway.
 */
export function definePersonal<S>({ anonymous }: { anonymous: S }) {
  const parts: Record<string, PartDraw<S>> = {};
  /** The visitor's state in any component (no markers: only for what is itself inside a part). */
  const usePersonal = (): S => {
    const state = useContext(PersonalContext);
    return (state === undefined ? anonymous : state) as S;
  };
  function part<P extends Record<string, unknown>>(name: string, draw: PartDraw<S, P>) {
    parts[name] = draw;
    return function Part(props: P) {
      return (
        <>
          <template data-hole={name} data-props={JSON.stringify(props)} />
          {draw(usePersonal(), props)}
          <template data-hole-end="" />
        </>
      );
    };
  }
  return { anonymous, parts, part, usePersonal };
}

// The browser's copy of the visitor's state: the document's at start, then each refresh's
// (./personal-refresh.ts, loaded with the first navigation or change: not first-load JS).
let current: unknown;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const personalState = (): unknown => current;

export function setPersonalState(state: unknown): void {
  current = state;
  for (const listener of listeners) listener();
}

/** The state the document carries (undefined: anonymous, the script is left out). */
export function readDocumentPersonalState(): void {
  const text = document.getElementById(PERSONAL_ELEMENT_ID)?.textContent;
  current = text ? (JSON.parse(text) as unknown) : undefined;
}

/**
 * Around the browser's app: the store's state for every part, the same at hydration as in the
 * HTML. A change is a transition: React hydrates a part still waiting (HydrateWhenVisible opens
 * it on a new state) before it updates it, where an urgent update would drop its server HTML.
 */
export function PersonalRoot({ children }: { children: ReactNode }) {
  const [state, setState] = useState(current);
  useEffect(() => subscribe(() => startTransition(() => setState(current))), []);
  return <PersonalContext value={state}>{children}</PersonalContext>;
}
