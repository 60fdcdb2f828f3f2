/**
 * The HTML around the React stream. The colour-mode script comes first in <head> with the
 * nonce (it must run before paint and is not a component, so React never sees it); then the
 * page's head, its stylesheets and module preloads, the app config and the payload.
 */
import { escapeHtml } from '../../../../lib/errors.js';
import { APP_CONFIG_ELEMENT_ID, type AppConfig } from '../runtime/app-config.js';
import { colorModeHeadScript, COLOR_MODE_FORCED_ATTRIBUTE } from '../runtime/color-mode.js';
import { APP_ELEMENT_ID } from '../runtime/document-ids.js';
import { renderHeadTags, type ResolvedHead } from '../runtime/head.js';
import { PAYLOAD_ELEMENT_ID, toScriptSafeJson } from '../runtime/payload.js';
import type { PageLinks } from './manifest-links.js';

export interface DocumentParts {
  nonce: string;
  htmlClass: string;
  forcedColorMode: string | null;
  head: ResolvedHead;
  links: Pick<PageLinks, 'modulepreload' | 'stylesheets'> & { entry?: string };
  config?: AppConfig;
  /** The payload as script-safe JSON, with the URL it is also served at. */
  payload?: { json: string; src: string };
}

const colorModeScript = colorModeHeadScript();

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
    renderHeadTags(parts.head) +
    parts.links.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}" crossorigin>`).join('') +
    preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}" crossorigin nonce="${nonce}">`).join('') +
    (parts.config
      ? `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}" nonce="${nonce}">${toScriptSafeJson(parts.config)}</script>`
      : '') +
    (parts.payload
      ? `<script type="application/json" id="${PAYLOAD_ELEMENT_ID}" data-src="${escapeHtml(parts.payload.src)}" nonce="${nonce}">${parts.payload.json}</script>`
      : '') +
    `</head><body><div id="${APP_ELEMENT_ID}">`
  );
}

export const DOCUMENT_END = '</div></body></html>';
