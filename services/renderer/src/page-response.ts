/**
 * An HTML page request: route data first, then one of a redirect, the error as JSON (for JSON
 * clients), a crawler's minimal error answer, or the streamed document with its payload inline.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderToString } from 'react-dom/server';
import { errorPageTitle, toErrorBody, toHttpError, wantsJson, type ErrorBody } from '@tern/shared/errors/errors';
import { errorCacheHeaders } from '@tern/shared/http/wants-json';
import { colorModeHtmlAttributes } from '@tern/runtime/shared/color-mode';
import { PERSONAL_HEADER } from '@tern/shared/config/constants';
import { errorHead } from '@tern/runtime/shared/head';
import { payloadUrl, type Payload } from '@tern/runtime/shared/payload';
import { answerCrawlerError, isCrawler } from './crawler.js';
import { createNonce, documentSecurityHeaders } from './csp.js';
import { DOCUMENT_END, documentStart } from './document.js';
import { HYDRATE_AFTER_PAINT_SCRIPT } from './hydrate-after-paint.js';
import { toInlineJson } from './inline-json.js';
import { queryOutcome } from './page-query.js';
import type { RenderMetrics } from './render-metrics.js';
import { appConfigOf, buildHeaders, originOf, pageLinks, type RenderContext } from './render-context.js';
import { siteUrl } from './site-url.js';
import { streamPage } from './stream-page.js';
import { documentEndWithState, personalStateOf } from './personal-response.js';

/**
 * An error page's body is the page or JSON as Accept chose, so it also varies with Accept; a page
 * may choose its own Cache-Control (its loader's `data()` headers, e.g. a search nobody may cache).
 */
function pageHeaders(context: RenderContext, nonce: string, error: boolean, cacheControl = 'no-cache'): Record<string, string> {
  return {
    ...buildHeaders(context),
    ...documentSecurityHeaders(nonce, context.assets?.connectSources),
    'cache-control': error ? 'no-cache' : cacheControl,
    vary: error ? 'cookie, accept' : 'cookie',
    'x-content-type-options': 'nosniff',
  };
}

export async function answerPage(
  context: RenderContext,
  request: FastifyRequest,
  reply: FastifyReply,
  metrics?: RenderMetrics,
): Promise<FastifyReply> {
  const outcome = await queryOutcome(context, request, reply, request.url);
  if (outcome.kind === 'redirect') return reply.code(outcome.status).header('location', outcome.location).send();
  const { query, firstError, errors, statusCode } = outcome;
  reply.headers(outcome.errorHeaders);
  // An error's body is JSON or the page as Accept chose: caches in front must key on it.
  if (firstError && wantsJson(request))
    return reply
      .code(statusCode)
      .headers({ ...buildHeaders(context), ...errorCacheHeaders(request.url, statusCode), vary: 'cookie, accept' })
      .send(firstError);
  const crawler = isCrawler(request);
  if (firstError && crawler) return answerCrawlerError(request, reply, firstError);

  const url = siteUrl(request.url);
  // The visitor's parts are drawn for them here too; the shared entry's (no cookie) anonymous.
  const personal = await personalStateOf(context, request);
  const nonce = createNonce();
  const origin = originOf(context, request);
  const colors = colorModeHtmlAttributes(request.headers.cookie, firstError ? null : query.colorMode);
  const links = pageLinks(context, query.files);
  // A build hydrates after the first paint; the dev server (Vite's assets) as a module script,
  // which runs after Vite's React refresh preamble as it must.
  const afterPaint = !context.assets;
  const payload: Payload = { buildId: context.build.id, path: url.pathname, data: query.data, errors };
  const inlineJson = toInlineJson(payload);
  metrics?.payloadBytes('inline', Buffer.byteLength(inlineJson));
  const start = documentStart({
    nonce,
    htmlClass: colors.className,
    forcedColorMode: colors.forced,
    extraHead: context.assets?.headHtml?.(nonce),
    head: firstError ? errorHead(statusCode, errorPageTitle(statusCode), origin, url.pathname, context.entry.site) : query.head(origin),
    links,
    bootstrapModules: afterPaint,
    config: appConfigOf(context, origin, crawler),
    payload: { json: inlineJson, src: payloadUrl(url.pathname, url.search, context.build.id) },
  });
  await streamPage(request, reply, {
    element: query.element({ nonce, errors, personal }),
    start,
    end: context.personal ? documentEndWithState(DOCUMENT_END, personal, nonce) : DOCUMENT_END,
    nonce,
    bootstrap: afterPaint ? { script: HYDRATE_AFTER_PAINT_SCRIPT } : { module: links.entry },
    waitForAll: crawler,
    timeoutMs: context.streamTimeoutMs,
    statusCode,
    headers: {
      ...pageHeaders(context, nonce, firstError !== null, query.cacheControl),
      ...(context.personal && query.personalParts ? { [PERSONAL_HEADER]: 'parts' } : {}),
    },
    onShellError: (error) => {
      answerShellError(context, request, reply, error);
    },
    whole: context.wholePages && { renderer: context.wholePages, page: query.files.join('\n') },
  });
  return reply;
}

/** The page could not render at all: the error page alone, static (no scripts), status 500. */
export function answerShellError(context: RenderContext, request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  request.log.error({ err: error }, 'page shell failed to render');
  const body: ErrorBody = toErrorBody(error, request.url, !context.production);
  reply.headers(toHttpError(error).headers);
  if (wantsJson(request))
    return reply
      .code(body.statusCode)
      .headers({ ...errorCacheHeaders(request.url, body.statusCode), vary: 'cookie, accept' })
      .send(body);
  if (isCrawler(request)) return answerCrawlerError(request, reply, body);
  const nonce = createNonce();
  const links = pageLinks(context, []);
  const path = siteUrl(request.url).pathname;
  const html =
    documentStart({
      nonce,
      htmlClass: colorModeHtmlAttributes(request.headers.cookie).className,
      forcedColorMode: null,
      head: errorHead(body.statusCode, errorPageTitle(body.statusCode), originOf(context, request), path, context.entry.site),
      links: { modulepreload: [], stylesheets: links.stylesheets },
    }) +
    renderToString(context.entry.errorElement(body)) +
    DOCUMENT_END;
  return reply
    .code(body.statusCode)
    .headers({ ...pageHeaders(context, nonce, true), 'cache-control': 'no-store' })
    .type('text/html; charset=utf-8')
    .send(html);
}
