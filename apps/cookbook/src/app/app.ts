/** The cookbook's app: its pages (file routing), its one layout, its route middleware, its error page and its search boxes' start-up. */
import { asyncComponent } from '@tern/runtime/shared/async-component';
import type { PageModule } from '@tern/runtime/shared/page-module';
import { defineSiteApp } from '@tern/site/define-site-app';
import { DefaultLayout } from './layouts/default.js';
import { middleware } from './middleware.js';
import { personal } from './personal.js';

/** Safari has no requestIdleCallback. */
const whenIdle = (task: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 2000 }) : setTimeout(task, 200);

export default defineSiteApp({
  pages: import.meta.glob<PageModule>('./pages/**/*.tsx'),
  layouts: { default: DefaultLayout },
  middleware,
  personal,
  // Its own chunk: no page's first load carries it.
  errorPage: asyncComponent(() => import('./components/site-error-page.js')),
  // Results as you type and `/`, Ctrl+K in every search box: two listeners, loaded once the page is
  // idle (not its first load), which load the rest on first use.
  onClientStart: () => whenIdle(() => void import('./search/search-enhancer.js').then((m) => m.installSearchEnhancer())),
});
