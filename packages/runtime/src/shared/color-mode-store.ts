/**
 * The client's colour-mode state, started from what the head script found. Keeps <html>'s
 * class, localStorage and the cookie in step, and follows the operating system while the
 * preference is `system`.
 */
import { COLOR_MODE_STORAGE_KEY } from '@tern/shared/config/constants';
import {
  COLOR_MODE_COOKIE,
  COLOR_MODE_COOKIE_MAX_AGE_S,
  COLOR_MODE_FALLBACK,
  COLOR_MODE_FORCED_ATTRIBUTE,
  colorModeCookieValue,
  isColorModePreference,
  resolveColorMode,
  type ColorModeBootState,
  type ColorModePreference,
  type ColorModeValue,
} from './color-mode.js';

export interface ColorModeState {
  preference: ColorModePreference;
  /** The mode in effect: the forced one if a page forces it, else the resolved preference. */
  value: ColorModeValue;
  forced: ColorModeValue | null;
  /** False during SSR and hydration, when the preference is not known yet. */
  known: boolean;
}

const SERVER_STATE: ColorModeState = { preference: 'system', value: COLOR_MODE_FALLBACK, forced: null, known: false };
const DARK_QUERY = '(prefers-color-scheme: dark)';

let state: ColorModeState | null = null;
let system: ColorModeValue = COLOR_MODE_FALLBACK;
const listeners = new Set<() => void>();

function systemMode(): ColorModeValue {
  if (typeof window.matchMedia !== 'function') return COLOR_MODE_FALLBACK;
  const query = window.matchMedia(DARK_QUERY);
  if (query.media === 'not all') return COLOR_MODE_FALLBACK;
  return query.matches ? 'dark' : 'light';
}

function storedPreference(): ColorModePreference {
  try {
    const stored = window.localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    if (isColorModePreference(stored)) return stored;
  } catch {
    // Storage can be blocked (privacy mode): fall back to the head script's answer.
  }
  return window.__COLOR_MODE__?.preference ?? 'system';
}

function initialState(): ColorModeState {
  const boot: ColorModeBootState | undefined = window.__COLOR_MODE__;
  system = systemMode();
  const preference = storedPreference();
  const forced = boot?.forced ?? null;
  return { preference, forced, value: forced ?? resolveColorMode(preference, system), known: true };
}

function current(): ColorModeState {
  state ??= initialState();
  return state;
}

function apply(next: ColorModeState): void {
  const root = document.documentElement;
  root.classList.remove(next.value === 'dark' ? 'light' : 'dark');
  root.classList.add(next.value);
  root.style.colorScheme = next.value;
  if (next.forced) root.setAttribute(COLOR_MODE_FORCED_ATTRIBUTE, next.forced);
  else root.removeAttribute(COLOR_MODE_FORCED_ATTRIBUTE);
  const resolved = resolveColorMode(next.preference, system);
  document.cookie = `${COLOR_MODE_COOKIE}=${colorModeCookieValue(next.preference, resolved)}; path=/; max-age=${COLOR_MODE_COOKIE_MAX_AGE_S}; samesite=lax`;
}

function update(change: Partial<Pick<ColorModeState, 'preference' | 'forced'>>): void {
  const prev = current();
  const preference = change.preference ?? prev.preference;
  const forced = change.forced === undefined ? prev.forced : change.forced;
  const next: ColorModeState = { preference, forced, value: forced ?? resolveColorMode(preference, system), known: true };
  state = next;
  apply(next);
  if (next.value !== prev.value || next.preference !== prev.preference || next.forced !== prev.forced) {
    for (const listener of listeners) listener();
  }
}

function onSystemChange(): void {
  system = systemMode();
  update({});
}

export const colorModeStore = {
  getSnapshot: current,
  getServerSnapshot: (): ColorModeState => SERVER_STATE,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    if (listeners.size === 1 && typeof window.matchMedia === 'function') {
      window.matchMedia(DARK_QUERY).addEventListener('change', onSystemChange);
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && typeof window.matchMedia === 'function') {
        window.matchMedia(DARK_QUERY).removeEventListener('change', onSystemChange);
      }
    };
  },
  setPreference(preference: ColorModePreference): void {
    try {
      window.localStorage.setItem(COLOR_MODE_STORAGE_KEY, preference);
    } catch {
      // The cookie still carries the choice when storage is blocked.
    }
    update({ preference });
  },
  /** A page's forced mode (already checked: never `system`), or null when the page forces none. */
  setForced(forced: ColorModeValue | null): void {
    update({ forced });
  },
};
