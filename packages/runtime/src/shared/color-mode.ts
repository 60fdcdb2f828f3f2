/**
 * Colour mode (docs/spec.md §4): a preference of light, dark or system kept in localStorage under
 * `color-mode`, plus the resolved value. A cookie mirrors both (`color-mode=<preference>.<value>`)
 * so the server can put the right class on <html> from the second visit on.
 * Browser-safe: the server imports this file too.
 */
import { COLOR_MODE_STORAGE_KEY } from '@tern/shared/config/constants';
import type { PageVary } from '@tern/shared/build-store/types';

export type ColorModePreference = 'light' | 'dark' | 'system';
export type ColorModeValue = 'light' | 'dark';

/** What the head script leaves on window for the app to start from. */
export interface ColorModeBootState {
  preference: ColorModePreference;
  value: ColorModeValue;
  system: ColorModeValue;
  forced: ColorModeValue | null;
}

declare global {
  interface Window {
    __COLOR_MODE__?: ColorModeBootState;
  }
}

export const COLOR_MODE_COOKIE = COLOR_MODE_STORAGE_KEY;
export const COLOR_MODE_COOKIE_MAX_AGE_S = 31_536_000;
/** Set on <html> by the server (and the client on navigation) when a page forces a mode. */
export const COLOR_MODE_FORCED_ATTRIBUTE = 'data-color-mode-forced';
export const FORCED_SYSTEM_WARNING = 'You cannot force the colorMode to system at the page level.';
/** Used when `system` cannot be resolved (no matchMedia, or the query is not supported). */
export const COLOR_MODE_FALLBACK: ColorModeValue = 'light';

export function isColorModePreference(value: unknown): value is ColorModePreference {
  return value === 'light' || value === 'dark' || value === 'system';
}

export function isColorModeValue(value: unknown): value is ColorModeValue {
  return value === 'light' || value === 'dark';
}

/** The resolved value of a preference, given what the operating system prefers. */
export function resolveColorMode(preference: ColorModePreference, system: ColorModeValue | null): ColorModeValue {
  if (preference !== 'system') return preference;
  return system ?? COLOR_MODE_FALLBACK;
}

/** The cookie's value for a preference and its resolved value, e.g. `system.dark`. */
export function colorModeCookieValue(preference: ColorModePreference, value: ColorModeValue): string {
  return `${preference}.${value}`;
}

function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * What a server render reads of a request (colorModeFromCookie below): the preference before the
 * cookie's `.`, when light or dark. The build meta declares it, so a cache keys every page on it
 * and passes it on (BuildMeta.pageVaries); `system` renders no class and shares one entry.
 */
export const COLOR_MODE_PAGE_VARY: PageVary = { cookie: COLOR_MODE_COOKIE, values: ['light', 'dark'] };

/**
 * What the server knows from the cookie: the preference, and the class to put on <html>
 * ('' when the preference is `system` and the resolved value is unknown: the head script decides).
 */
export function colorModeFromCookie(cookieHeader: string | undefined): {
  preference: ColorModePreference;
  className: ColorModeValue | '';
} {
  const raw = cookieHeader ? readCookie(cookieHeader, COLOR_MODE_COOKIE) : undefined;
  const [preference, value] = (raw ?? '').split('.');
  if (!isColorModePreference(preference)) return { preference: 'system', className: '' };
  if (preference !== 'system') return { preference, className: preference };
  return { preference, className: isColorModeValue(value) ? value : '' };
}

/**
 * The attributes the server puts on <html>: the class from the cookie, or the forced mode of the
 * page. Forcing `system` is ignored with a warning, as on the client.
 */
export function colorModeHtmlAttributes(
  cookieHeader: string | undefined,
  forced?: ColorModePreference | null,
): { className: ColorModeValue | ''; forced: ColorModeValue | null } {
  const forcedValue = checkForcedColorMode(forced);
  if (forcedValue) return { className: forcedValue, forced: forcedValue };
  return { className: colorModeFromCookie(cookieHeader).className, forced: null };
}

/** A page's forced mode if it is usable; `system` logs the warning and counts as none. */
export function checkForcedColorMode(forced: ColorModePreference | null | undefined): ColorModeValue | null {
  if (forced === 'system') {
    console.warn(FORCED_SYSTEM_WARNING);
    return null;
  }
  return isColorModeValue(forced) ? forced : null;
}

/**
 * The body of the blocking inline script the server puts first in <head> (wrap it in
 * `<script nonce="…">`). Before first paint it reads the stored preference (localStorage, then the
 * cookie), resolves `system` with matchMedia, honours a forced mode on <html>, sets the class and
 * `color-scheme`, refreshes the cookie and exposes `window.__COLOR_MODE__` for the app.
 */
export function colorModeHeadScript(): string {
  const key = JSON.stringify(COLOR_MODE_STORAGE_KEY);
  const cookie = JSON.stringify(COLOR_MODE_COOKIE);
  const attr = JSON.stringify(COLOR_MODE_FORCED_ATTRIBUTE);
  const fallback = JSON.stringify(COLOR_MODE_FALLBACK);
  return `(function(){try{var d=document.documentElement,k=${key},p=null;
try{p=localStorage.getItem(k)}catch(e){}
if(p!=="light"&&p!=="dark"&&p!=="system"){var m=document.cookie.match(new RegExp("(?:^|; )"+${cookie}+"=([a-z]+)"));p=m&&(m[1]==="light"||m[1]==="dark"||m[1]==="system")?m[1]:"system"}
var s=${fallback};if(window.matchMedia){var q=window.matchMedia("(prefers-color-scheme: dark)");if(q.media!=="not all")s=q.matches?"dark":"light"}
var r=p==="system"?s:p,f=d.getAttribute(${attr}),v=f==="light"||f==="dark"?f:r;
d.classList.remove("light","dark");d.classList.add(v);d.style.colorScheme=v;
document.cookie=${cookie}+"="+p+"."+r+"; path=/; max-age=${COLOR_MODE_COOKIE_MAX_AGE_S}; samesite=lax";
window.__COLOR_MODE__={preference:p,value:v,system:s,forced:f===v?f:null};
}catch(e){}})();`;
}
