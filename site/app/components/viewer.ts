/**
 * The signed-in visitor as pages carry it in their loader data (`viewer`), so the layout can
 * show who is signed in without a request of its own.
 */
import { useMatches } from 'react-router';
import type { Viewer } from '../viewer-services.js';

export interface PageViewer {
  name: string;
  email: string;
}

export function pageViewerOf(viewer: Viewer | null): PageViewer | null {
  return viewer ? { name: viewer.user.name, email: viewer.user.email } : null;
}

/** The viewer in the current page's data; null when anonymous or the page does not say. */
export function useViewer(): PageViewer | null {
  const data = useMatches().at(-1)?.data as { viewer?: PageViewer | null } | null | undefined;
  return data?.viewer ?? null;
}
