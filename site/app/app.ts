/** The cookbook's app: its pages (file routing), its one layout and its route middleware. */
import type { PageModule } from '../../services/renderer/src/runtime/shared/page-module.js';
import { defineSiteApp } from '../../services/renderer/src/site-api/define-site-app.js';
import { DefaultLayout } from './layouts/default.js';
import { middleware } from './middleware.js';

export default defineSiteApp({
  pages: import.meta.glob<PageModule>('./pages/**/*.tsx'),
  layouts: { default: DefaultLayout },
  middleware,
});
