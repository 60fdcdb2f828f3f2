/** What a signed-in visitor's personal parts (personal.tsx) are drawn from: small, it travels with every page they load. */
import type { PageViewer } from './components/viewer.js';

export interface PersonalState {
  viewer: PageViewer | null;
  /** The ids of the recipes they saved. */
  saved: string[];
}
