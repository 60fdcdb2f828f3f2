/**
 * The browser entry: the same route tree as the server with payload-fetching loaders, the first
 * payload from the page, lazy matches resolved, then hydration of the server's HTML.
 */
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, type DataRouter as Router } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { adoptServerIcons } from '@tern/ui/icon';
import { appRoutes, onClientStart } from './app/site.js';
import { appConfig } from './shared/app-config.js';
import { isChunkLoadError, recoverFromChunkError } from './browser/chunk-reload.js';
import { createNavigationStrategy } from './browser/client-navigation.js';
import { startClientRuntime } from './browser/client-runtime.js';
import { APP_ELEMENT_ID } from './shared/document-ids.js';
import { resolveLazyMatches } from './browser/hydrate-lazy.js';
import { loadPayloadData } from './browser/payload-fetch.js';
import { yieldToBrowser } from './browser/yield-to-browser.js';
import { PAGE_DATA_EXPORTS } from './shared/page-module.js';
import { reviveError } from '@tern/shared/errors/errors';
import { SITE_DATA_CHANGED_EVENT } from './shared/dev-events.js';
import { PAYLOAD_ELEMENT_ID, type Payload } from './shared/payload.js';
import { PersonalRoot, readDocumentPersonalState } from './shared/personal.js';

/** The page's inline payload; null in the `ssr: false` shell, whose data the router fetches. */
function inlinePayload(): Payload | null {
  const text = document.getElementById(PAYLOAD_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as Payload) : null;
}

if (import.meta.hot) {
  // `npm run dev`: a page module exports data beside its component (loader, head…); Fast Refresh
  // would take that for a non-component module and reload the page, losing its state.
  Object.assign(window, {
    __getReactRefreshIgnoredExports: ({ id }: { id: string }) => (id.includes('/app/pages/') ? PAGE_DATA_EXPORTS : []),
  });
}

async function main(): Promise<void> {
  // The modules were just evaluated in this task; start up in tasks of their own.
  await yieldToBrowser();
  const payload = inlinePayload();
  // The visitor's state the gateway spliced in (or the server drew): hydration sees what the HTML shows.
  readDocumentPersonalState();
  const routes = appRoutes.createRoutes(
    (page) =>
      ({ request }) =>
        loadPayloadData(request, page.id),
  );
  // A page chunk that fails to load reloads the page once; a second failure renders the error page.
  const hydrate = await resolveLazyMatches(routes, window.location).then(
    () => true,
    (error: unknown) => {
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      // Crawlers (as the server judged them, with isbot) keep the server's HTML.
      if (!isChunkLoadError(error) || appConfig().crawler) throw error;
      // Reloading: wait for the page to go. Blocked: render (not hydrate) so the error page shows.
      return recoverFromChunkError(here) === 'reloading' ? new Promise<boolean>(() => undefined) : false;
    },
  );
  // From here to hydration in one task: the router listens to history from its creation on.
  await yieldToBrowser();
  const errors = payload?.errors && Object.fromEntries(Object.entries(payload.errors).map(([id, body]) => [id, reviveError(body)]));
  let router: Router | null = null;
  router = createBrowserRouter(routes, {
    // Without a payload (the ssr: false shell) the router runs the loaders, which fetch it.
    ...(payload ? { hydrationData: { loaderData: payload.data, errors: errors ?? null } } : {}),
    dataStrategy: createNavigationStrategy(() => router, appRoutes.definition),
  });
  const container = document.getElementById(APP_ELEMENT_ID);
  if (!container) throw new Error(`#${APP_ELEMENT_ID} is missing from the page`);
  startClientRuntime(router, routes, container, appRoutes.definition);
  onClientStart?.();
  // `npm run dev`: the site's server rebuilt its data (an edited source); show it without a reload.
  import.meta.hot?.on(SITE_DATA_CHANGED_EVENT, () => void router?.revalidate());
  const app = (
    <StrictMode>
      <PersonalRoot>
        <RouterProvider router={router} />
      </PersonalRoot>
    </StrictMode>
  );
  if (hydrate && payload) {
    adoptServerIcons(container);
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page (one long task of ~4x its desktop time on a phone); a
    // press on a part not yet hydrated hydrates that part first (React's selective hydration).
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else createRoot(container).render(app);
}

void main();
