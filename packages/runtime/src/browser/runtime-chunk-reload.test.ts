import { describe, expect, it } from 'vitest';
import { RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '../shared/reload-guard.js';
import { claimReload, isChunkLoadError } from './chunk-reload.js';

function memoryStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('reload guard', () => {
  it('allows the first reload of a path and writes the marker { path, expires }', () => {
    const storage = memoryStorage();
    expect(claimReload(storage, '/category/git?x=1#a', 1000)).toBe(true);
    expect(JSON.parse(storage.data.get(RELOAD_MARKER_KEY)!)).toEqual({ path: '/category/git?x=1#a', expires: 1000 + RELOAD_GUARD_MS });
  });

  it('refuses the same path again within 10 s, allows it after', () => {
    const storage = memoryStorage();
    expect(claimReload(storage, '/a', 0)).toBe(true);
    expect(claimReload(storage, '/a', RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimReload(storage, '/a', RELOAD_GUARD_MS)).toBe(true);
  });

  it('allows another path at once (the marker then guards that one)', () => {
    const storage = memoryStorage();
    expect(claimReload(storage, '/a', 0)).toBe(true);
    expect(claimReload(storage, '/b', 1)).toBe(true);
    expect(claimReload(storage, '/a', 2)).toBe(true);
    expect(claimReload(storage, '/a', 3)).toBe(false);
  });

  it('treats a broken marker as none', () => {
    const storage = memoryStorage();
    storage.setItem(RELOAD_MARKER_KEY, '{not json');
    expect(claimReload(storage, '/a', 0)).toBe(true);
    storage.setItem(RELOAD_MARKER_KEY, JSON.stringify({ path: 5 }));
    expect(claimReload(storage, '/a', 0)).toBe(true);
  });

  it('never reloads when the marker cannot be kept (no guard means a possible loop)', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(claimReload(storage, '/a', 0)).toBe(false);
    expect(claimReload(null, '/a', 0)).toBe(false);
  });
});

describe('chunk errors', () => {
  it.each([
    'Failed to fetch dynamically imported module: http://x/_nuxt/a.js',
    'error loading dynamically imported module: http://x/_nuxt/a.js',
    'Importing a module script failed.',
    'Unable to preload CSS for /_nuxt/a.css',
  ])('recognises %j', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true);
  });

  it('does not take other errors for chunk errors', () => {
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
