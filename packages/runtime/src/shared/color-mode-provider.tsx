/** React access to the colour mode: a hook for components, and the page-level forcing. */
import { useEffect, useSyncExternalStore } from 'react';
import { checkForcedColorMode, type ColorModePreference } from './color-mode.js';
import { colorModeStore, type ColorModeState } from './color-mode-store.js';

export function useColorMode(): ColorModeState & { setPreference: (preference: ColorModePreference) => void } {
  const state = useSyncExternalStore(colorModeStore.subscribe, colorModeStore.getSnapshot, colorModeStore.getServerSnapshot);
  return { ...state, setPreference: colorModeStore.setPreference };
}

/** Applies a page's forced mode while it is shown; `system` is warned about and ignored. */
export function useForcedColorMode(forced: ColorModePreference | null | undefined): void {
  useEffect(() => {
    colorModeStore.setForced(checkForcedColorMode(forced ?? null));
  }, [forced]);
}
