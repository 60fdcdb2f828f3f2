/**
 * The browser entry: the same route tree as the server with payload-fetching loaders, the first
 * payload from the page, lazy matches resolved, then hydration of the server's HTML.
 */
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { createRoutes } from './app/routes.js';
import { APP_ELEMENT_ID } from './runtime/document-ids.js';
import { resolveLazyMatches } from './runtime/hydrate-lazy.js';
import { loadPayloadData } from './runtime/payload-fetch.js';
import { PAYLOAD_ELEMENT_ID, reviveError, type Payload } from './runtime/payload.js';

function inlinePayload(): Payload {
  const text = document.getElementById(PAYLOAD_ELEMENT_ID)?.textContent;
  if (!text) throw new Error(`#${PAYLOAD_ELEMENT_ID} is missing from the page`);
  return JSON.parse(text) as Payload;
}

async function main(): Promise<void> {
  const payload = inlinePayload();
  const routes = createRoutes((page) => ({ request }) => loadPayloadData(request, page.id));
  await resolveLazyMatches(routes, window.location);
  const errors = payload.errors && Object.fromEntries(Object.entries(payload.errors).map(([id, body]) => [id, reviveError(body)]));
  const router = createBrowserRouter(routes, { hydrationData: { loaderData: payload.data, errors } });
  const container = document.getElementById(APP_ELEMENT_ID);
  if (!container) throw new Error(`#${APP_ELEMENT_ID} is missing from the page`);
  hydrateRoot(
    container,
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}

void main();
