/**
 * `ssr: false` (Nuxt's per-route SPA mode): the same document with no server rendering and no
 * inline payload. The browser entry sees no payload, renders from scratch and fetches the page's
 * payload itself, so validation, middleware and redirects still run on the server. In production
 * the entry loads through the inline bootstrap, which reloads the page once if it fails: an empty
 * shell has no server HTML to fall back on. In development Vite's client needs the module script.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '@tern/shared/errors/errors';
import { colorModeHtmlAttributes } from '@tern/runtime/shared/color-mode';
import { resolveHead } from '@tern/runtime/shared/head';
import { createNonce, documentSecurityHeaders } from './csp.js';
import { LOAD_ENTRY_SCRIPT } from './hydrate-after-paint.js';
import { documentStart } from './document.js';
import { appConfigOf, buildHeaders, originOf, pageLinks, type RenderContext } from './render-context.js';
import { siteUrl } from './site-url.js';

export function answerShell(context: RenderContext, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const nonce = createNonce();
  const url = siteUrl(request.url);
  const origin = originOf(context, request);
  const links = pageLinks(context, []);
  const bootstrap = !context.assets;
  const entryScript = bootstrap
    ? `<script nonce="${escapeHtml(nonce)}">${LOAD_ENTRY_SCRIPT}</script>`
    : `<script type="module" src="${escapeHtml(links.entry)}" nonce="${escapeHtml(nonce)}" async></script>`;
  const html =
    documentStart({
      nonce,
      htmlClass: colorModeHtmlAttributes(request.headers.cookie).className,
      forcedColorMode: null,
      // The page sets its own title once its data is in; crawlers get a neutral head.
      head: { ...resolveHead(undefined, { data: null, params: {}, path: url.pathname }, origin, context.entry.site), robots: false },
      extraHead: context.assets?.headHtml?.(nonce),
      links,
      bootstrapModules: bootstrap,
      config: appConfigOf(context, origin),
    }) + `</div>${entryScript}</body></html>`;
  return reply
    .code(200)
    .headers({
      ...buildHeaders(context),
      ...documentSecurityHeaders(nonce, context.assets?.connectSources),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    })
    .type('text/html; charset=utf-8')
    .send(html);
}
