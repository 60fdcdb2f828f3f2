/**
 * The signed-in visitor as the header's personal parts show them (../personal.tsx), and as the
 * pages that are the visitor's own (home's saved list, /saved, /login) carry it in their data.
 */
import type { Viewer } from '../viewer-services.js';

export interface PageViewer {
  name: string;
  email: string;
}

export function pageViewerOf(viewer: Viewer | null): PageViewer | null {
  return viewer ? { name: viewer.user.name, email: viewer.user.email } : null;
}
