/**
 * The HTML around the React stream. The colour-mode script comes first in <head> with the
 * nonce (it must run before paint and is not a component, so React never sees it); then the
 * page's head, its stylesheets, its module preloads (or, for the inline bootstrap, the list of
 * its modules), the app config and the payload.
 */
import { escapeHtml } from '@tern/shared/errors/errors';
import { APP_CONFIG_ELEMENT_ID, type AppConfig } from '@tern/runtime/shared/app-config';
import { colorModeHeadScript, COLOR_MODE_FORCED_ATTRIBUTE } from '@tern/runtime/shared/color-mode';
import { APP_ELEMENT_ID, PAGE_MODULES_ELEMENT_ID } from '@tern/runtime/shared/document-ids';
import { renderHeadTags, type ResolvedHead } from '@tern/runtime/shared/head';
import { PAYLOAD_ELEMENT_ID, toScriptSafeJson } from '@tern/runtime/shared/payload';
import type { PageLinks } from './manifest-links.js';

export interface DocumentParts {
  nonce: string;
  htmlClass: string;
  forcedColorMode: string | null;
  head: ResolvedHead;
  /** Markup after the head tags (development: Vite's client scripts, already nonced). */
  extraHead?: string | undefined;
  links: Pick<PageLinks, 'modulepreload' | 'stylesheets'> & { entry?: string };
  /**
   * The modules are listed for the inline bootstrap (server/hydrate-after-paint.ts), which loads
   * them itself (after the first paint, or at once in the `ssr: false` shell) instead of being
   * preloaded from the head.
   */
  bootstrapModules?: boolean;
  config?: AppConfig;
  /** The payload as script-safe JSON, with the URL it is also served at. */
  payload?: { json: string; src: string };
}

const colorModeScript = colorModeHeadScript();
// Inline, so browsers never ask the renderer for /favicon.ico (a full 404 render each time).
const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#15803d"/><path d="M9 20h14v3H9zm2-9a5 5 0 0 1 10 0 4 4 0 0 1 0 8H11a4 4 0 0 1 0-8" fill="#fff"/></svg>')}`;

export function documentStart(parts: DocumentParts): string {
  const nonce = escapeHtml(parts.nonce);
  const htmlAttributes =
    (parts.htmlClass ? ` class="${escapeHtml(parts.htmlClass)}"` : '') +
    (parts.forcedColorMode ? ` ${COLOR_MODE_FORCED_ATTRIBUTE}="${escapeHtml(parts.forcedColorMode)}"` : '');
  const preloads = [...(parts.links.entry ? [parts.links.entry] : []), ...parts.links.modulepreload];
  return (
    `<!DOCTYPE html><html lang="en"${htmlAttributes}><head>` +
    `<script nonce="${nonce}">${colorModeScript}</script>` +
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta property="csp-nonce" nonce="${nonce}">` +
    `<link rel="icon" href="${escapeHtml(ICON)}">` +
    renderHeadTags(parts.head) +
    (parts.extraHead ?? '') +
    parts.links.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}" crossorigin>`).join('') +
    moduleLinks(parts, preloads, nonce) +
    (parts.config
      ? `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}" nonce="${nonce}">${toScriptSafeJson(parts.config)}</script>`
      : '') +
    (parts.payload
      ? `<script type="application/json" id="${PAYLOAD_ELEMENT_ID}" data-src="${escapeHtml(parts.payload.src)}" nonce="${nonce}">${parts.payload.json}</script>`
      : '') +
    `</head><body><div id="${APP_ELEMENT_ID}">`
  );
}

function moduleLinks(parts: DocumentParts, preloads: string[], nonce: string): string {
  if (parts.bootstrapModules && parts.links.entry) {
    const modules = { entry: parts.links.entry, preload: preloads };
    return `<script type="application/json" id="${PAGE_MODULES_ELEMENT_ID}" nonce="${nonce}">${toScriptSafeJson(modules)}</script>`;
  }
  // The page is already in the HTML: its scripts (for hydration) come after the stylesheet and the
  // images that draw it, as a deferred script would (Chrome gives modulepreload high priority).
  return preloads
    .map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}" crossorigin nonce="${nonce}" fetchpriority="low">`)
    .join('');
}

export const DOCUMENT_END = '</div></body></html>';
