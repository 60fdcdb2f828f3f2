/**
 * The browser-and-server half of a site, bundled by Vite into both: its pages (Nuxt's file
 * routing, found by `import.meta.glob('./pages/**\/*.tsx')` in the site's own module, since a glob
 * must be written where the files are), its layouts and its route middleware. Browser-safe.
 */
import type { ComponentType, ReactNode } from 'react';
import type { MiddlewareRegistry } from '@tern/runtime/shared/middleware';
import type { PageModule } from '@tern/runtime/shared/page-module';
import type { ErrorBody } from '@tern/shared/errors/errors';
import type { PersonalDefinition } from '@tern/runtime/shared/personal';

/** What a site's own error page is given (`defineSiteApp({ errorPage })`). */
export interface SiteErrorPageProps extends Pick<ErrorBody, 'statusCode' | 'statusMessage' | 'message'> {
  /** SPEC's words for the status: 'Page Not Found' for 404, else 'Internal Server Error'. */
  title: string;
}

export type LayoutComponent = ComponentType<{ children: ReactNode }>;

export interface SiteApp {
  /** `import.meta.glob<PageModule>('./pages/**\/*.tsx')` of the app module's folder. */
  pages: Record<string, () => Promise<PageModule>>;
  /** The layouts a page names with `export const layout = '<name>'`; `default` unless it says otherwise. */
  layouts: Record<string, LayoutComponent>;
  /** Route middleware: `global` before every page, `named` where a page asks for them. */
  middleware?: Partial<MiddlewareRegistry>;
  /**
   * The site's own error page, for errors of its pages (a 404 included): drawn inside the router,
   * so it may sit in the site's layout with its links and forms. The head (`{status} - {title}`) and
   * the status stay the platform's. None: the platform's page. An error in the app's root, or a page
   * that cannot render at all, still gets the platform's standalone page.
   */
  errorPage?: ComponentType<SiteErrorPageProps>;
  /**
   * Runs once in the browser, before hydration: for document-wide listeners that import a feature
   * on first use (a site's search box and its shortcut), so the feature costs no page's first load.
   */
  onClientStart?: () => void;
  /**
   * The page's personal parts (`definePersonal`, docs/decisions/personal-holes.md): the renderer
   * draws them alone, per visitor, for the gateway to splice into a shared cache entry.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each site's own state
  personal?: PersonalDefinition<any>;
}

/** Types the app; the server bundle checks it when it loads (entry-server.tsx), so the browser carries no check. */
export function defineSiteApp(app: SiteApp): SiteApp {
  return app;
}
