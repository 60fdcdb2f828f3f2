/**
 * The SSR bundle's entry: the route tree with the server's loaders, and what the Node server
 * asks of it (see server/ssr-entry.ts). Rendering to a stream is the server's job.
 */
import {
  createStaticHandler,
  createStaticRouter,
  RouterContextProvider,
  StaticRouter,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import { Fragment } from 'react';
import { reviveError, type ErrorBody } from '@tern/shared/errors/errors';
import { StandaloneErrorPage } from './app/error-page.js';
import siteServer from 'virtual:site-server';
import { appRoutes, sitePersonal, siteHead } from './app/site.js';
import { PersonalContext } from './shared/personal.js';
import { resolveHead } from './shared/head.js';
import { createPageLoader } from './server/page-loader.js';
import { shareHeadOf } from './server/share-head.js';
import { isPageHandle, type PageHandle } from './shared/page-module.js';
import { servicesContext, type RendererServices } from '@tern/site/services';
import type { PageQuery, PersonalPart, SsrEntry } from './server/ssr-entry.js';

// A glob that found nothing (a misplaced pages folder) stops the renderer at start, not at the first visit.
if (appRoutes.pageFiles.length === 0) throw new Error("the site's app has no pages: import.meta.glob('./pages/**/*.tsx') found none");
const runPageLoader = createPageLoader(appRoutes.definition.middleware);
const routes = appRoutes.createRoutes((page) => async (args) => runPageLoader(await page.load(), args));
const handler = createStaticHandler(routes);

export const clientEntry = 'src/entry-client.tsx';

function pageOf(
  context: StaticHandlerContext,
): { handle: PageHandle; params: Record<string, string | undefined>; pathname: string } | undefined {
  const last = context.matches.at(-1);
  if (!last || !isPageHandle(last.route.handle)) return undefined;
  return { handle: last.route.handle, params: last.params, pathname: last.pathname };
}

export async function queryPage(request: Request, services: RendererServices): Promise<Response | PageQuery> {
  const requestContext = new RouterContextProvider();
  requestContext.set(servicesContext, services);
  const context = await handler.query(request, { requestContext });
  if (context instanceof Response) return context;
  const page = pageOf(context);
  const files = context.matches.flatMap((match) => (isPageHandle(match.route.handle) ? [match.route.handle.page.file] : []));
  const pageRouteId = context.matches.at(-1)?.route.id;
  return {
    data: context.loaderData,
    errors: context.errors,
    files,
    cacheControl: (pageRouteId && context.loaderHeaders[pageRouteId]?.get('cache-control')) || undefined,
    colorMode: page?.handle.page.colorMode,
    personalParts: page?.handle.page.personal === 'parts' && !context.errors,
    head(origin) {
      const data = page ? context.loaderData[context.matches.at(-1)!.route.id] : null;
      const headContext = { data, params: page?.params ?? {}, path: context.location.pathname };
      const resolved = resolveHead(page?.handle.page.head, headContext, origin, siteHead);
      return page
        ? { ...resolved, share: shareHeadOf(page.handle.page.head, headContext, origin, siteHead, resolved.canonical) }
        : resolved;
    },
    element({ nonce, errors, personal: state }) {
      const rendered = {
        ...context,
        errors: errors && Object.fromEntries(Object.entries(errors).map(([id, body]) => [id, reviveError(body)])),
      };
      const router = createStaticRouter(handler.dataRoutes, rendered);
      return (
        <PersonalContext value={state ?? undefined}>
          <StaticRouterProvider router={router} context={rendered} nonce={nonce} hydrate={false} />
        </PersonalContext>
      );
    },
  };
}

/**
 * The visitor's parts of a page alone (no loader, no page): one tree, the parts in order with a
 * separator between them, in a router at the page's address (links and the location read it).
 * Throws (a 400 for the caller) on a part the site does not define.
 */
export async function personalPartsElement(location: string, state: unknown, parts: PersonalPart[]) {
  const definition = sitePersonal();
  if (!definition) throw new Error('the site defines no personal parts');
  // Parts register as their modules load: every page's, once.
  await (partsLoaded ??= Promise.all(appRoutes.pageFiles.map((file) => file.load())));
  const drawn = parts.map(({ name, props }, index) => {
    const draw = Object.hasOwn(definition.parts, name) ? definition.parts[name] : undefined;
    if (typeof draw !== 'function') throw new Error(`unknown personal part "${name}"`);
    return (
      <Fragment key={index}>
        {index > 0 && <template data-part-separator="" />}
        {draw(state ?? definition.anonymous, props)}
      </Fragment>
    );
  });
  return (
    <PersonalContext value={state ?? undefined}>
      <StaticRouter location={location}>{drawn}</StaticRouter>
    </PersonalContext>
  );
}
/** Every page module, imported once, so every part is registered. */
let partsLoaded: Promise<unknown> | undefined;

export function errorElement(error: ErrorBody) {
  return <StandaloneErrorPage error={error} />;
}

export const site = siteHead;

export { siteServer };

export default { clientEntry, queryPage, errorElement, personalPartsElement, site, siteServer } satisfies SsrEntry;
