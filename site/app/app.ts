/** The cookbook's app: its pages (file routing), its one layout, its route middleware and its error page. */
import { asyncComponent } from '../../services/renderer/src/runtime/shared/async-component.js';
import type { PageModule } from '../../services/renderer/src/runtime/shared/page-module.js';
import { defineSiteApp } from '../../services/renderer/src/site-api/define-site-app.js';
import { DefaultLayout } from './layouts/default.js';
import { middleware } from './middleware.js';

export default defineSiteApp({
  pages: import.meta.glob<PageModule>('./pages/**/*.tsx'),
  layouts: { default: DefaultLayout },
  middleware,
  // Its own chunk: no page's first load carries it.
  errorPage: asyncComponent(() => import('./components/site-error-page.js')),
});
