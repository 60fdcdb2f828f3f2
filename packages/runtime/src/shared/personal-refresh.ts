/**
 * Asking for the visitor's state again (`GET /_personal`, runtime/shared/personal.tsx): after a
 * change (a sign-in, a save) and beside a navigation's payload. Loaded with the first of those,
 * not with the page. Browser-only.
 */
import { PERSONAL_PATH, personalState, setPersonalState } from './personal.js';

let refreshing: Promise<void> | undefined;

/** Asks again; a failure keeps the last state; the same state again changes nothing (no re-render). */
export function refreshPersonalState(): Promise<void> {
  const refresh = (async () => {
    const response = await fetch(PERSONAL_PATH, { credentials: 'same-origin', headers: { accept: 'application/json' } }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as { state?: unknown } | null;
    if (!response?.ok || !body || !('state' in body)) return;
    const state = body.state ?? undefined;
    if (JSON.stringify(state) !== JSON.stringify(personalState())) setPersonalState(state);
  })().finally(() => refreshing === refresh && (refreshing = undefined));
  return (refreshing = refresh);
}

/** The refresh under way (a sign-in's), for a navigation to wait on; else a new one if someone is signed in. */
export const personalRefreshFor = (): Promise<void> | undefined =>
  refreshing ?? (personalState() === undefined ? undefined : refreshPersonalState());
