import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FORCED_SYSTEM_WARNING,
  colorModeFromCookie,
  colorModeHeadScript,
  colorModeHtmlAttributes,
} from './color-mode.js';

describe('colour-mode cookie', () => {
  it.each([
    [undefined, 'system', ''],
    ['', 'system', ''],
    ['color-mode=dark', 'dark', 'dark'],
    ['a=1; color-mode=light.light; b=2', 'light', 'light'],
    ['color-mode=system.dark', 'system', 'dark'],
    ['color-mode=system', 'system', ''],
    ['color-mode=system.purple', 'system', ''],
    ['color-mode=purple.dark', 'system', ''],
    ['xcolor-mode=dark', 'system', ''],
    ['color-mode=dark.light', 'dark', 'dark'],
  ])('%s → %s / %s', (header, preference, className) => {
    expect(colorModeFromCookie(header)).toEqual({ preference, className });
  });
});

describe('forced mode on the server', () => {
  afterEach(() => vi.restoreAllMocks());
  it('a forced light or dark wins over the cookie; system is warned about and ignored', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(colorModeHtmlAttributes('color-mode=dark', 'light')).toEqual({ className: 'light', forced: 'light' });
    expect(warn).not.toHaveBeenCalled();
    expect(colorModeHtmlAttributes('color-mode=dark', 'system')).toEqual({ className: 'dark', forced: null });
    expect(warn).toHaveBeenCalledWith(FORCED_SYSTEM_WARNING);
    expect(colorModeHtmlAttributes(undefined, null)).toEqual({ className: '', forced: null });
  });
});

/** Runs the head script against a minimal document: enough to read what it decides. */
function runHeadScript(env: { stored?: string | null; cookie?: string; dark?: boolean | 'unsupported'; forced?: string }) {
  const classes = new Set<string>();
  const attributes: Record<string, string> = env.forced ? { 'data-color-mode-forced': env.forced } : {};
  const documentElement = {
    classList: { add: (c: string) => classes.add(c), remove: (...cs: string[]) => cs.forEach((c) => classes.delete(c)) },
    getAttribute: (name: string) => attributes[name] ?? null,
    style: { colorScheme: '' },
  };
  let cookieWritten = '';
  const document = {
    documentElement,
    get cookie() {
      return env.cookie ?? '';
    },
    set cookie(value: string) {
      cookieWritten = value;
    },
  };
  const window: Record<string, unknown> = {
    matchMedia: (query: string) => ({ media: env.dark === 'unsupported' ? 'not all' : query, matches: env.dark === true }),
  };
  const localStorage = { getItem: () => env.stored ?? null };
  runInNewContext(colorModeHeadScript(), { window, document, localStorage });
  return { classes: [...classes], colorScheme: documentElement.style.colorScheme, cookie: cookieWritten, state: window.__COLOR_MODE__ };
}

describe('head script', () => {
  it('resolves system through matchMedia and mirrors preference and value in the cookie', () => {
    const out = runHeadScript({ stored: 'system', dark: true });
    expect(out.classes).toEqual(['dark']);
    expect(out.colorScheme).toBe('dark');
    expect(out.cookie).toMatch(/^color-mode=system\.dark; path=\/; max-age=31536000; samesite=lax$/);
    expect(out.state).toEqual({ preference: 'system', value: 'dark', system: 'dark', forced: null });
  });

  it('a stored preference wins over the OS; no storage falls back to the cookie, then system', () => {
    expect(runHeadScript({ stored: 'light', dark: true }).classes).toEqual(['light']);
    expect(runHeadScript({ stored: null, cookie: 'x=1; color-mode=dark.dark', dark: false }).classes).toEqual(['dark']);
    expect(runHeadScript({ stored: 'bogus', dark: false }).cookie).toMatch(/^color-mode=system\.light;/);
  });

  it('falls back to light when the media query is unsupported', () => {
    expect(runHeadScript({ stored: 'system', dark: 'unsupported' }).classes).toEqual(['light']);
  });

  it('honours a forced mode on <html> but keeps the preference in the cookie', () => {
    const out = runHeadScript({ stored: 'dark', forced: 'light' });
    expect(out.classes).toEqual(['light']);
    expect(out.cookie).toMatch(/^color-mode=dark\.dark;/);
    expect(out.state).toMatchObject({ preference: 'dark', value: 'light', forced: 'light' });
  });
});
