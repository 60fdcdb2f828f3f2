/**
 * Per-page head: title, description and canonical URL. The server writes the tags into the
 * document template; on client navigations `applyHead` updates the same tags. Browser-safe.
 */
import { escapeHtml } from '@tern/shared/errors/errors';

export interface PageHead {
  title?: string;
  description?: string;
  /** A path (`/posts/hello`) or an absolute URL; defaults to the page's own path. */
  canonical?: string;
  /** False adds `noindex`. */
  robots?: boolean;
  /** Open Graph type (`og:type`); `website` unless the page says. Written by the server only, for crawlers. */
  type?: 'website' | 'article';
  /** A path or absolute URL of the page's preview image (`og:image`, a large Twitter card). */
  image?: string;
  /** Structured data (schema.org) written as `<script type="application/ld+json">`. */
  jsonLd?: Record<string, unknown>;
}

export interface HeadContext {
  data: unknown;
  params: Record<string, string | undefined>;
  path: string;
}

export type PageHeadInput = PageHead | ((context: HeadContext) => PageHead);

export interface ResolvedHead {
  title: string;
  description: string;
  canonical: string;
  robots: boolean;
  /** Open Graph, Twitter and JSON-LD, for crawlers: only the server's render resolves them (runtime/server/share-head.ts). */
  share?: ShareHead;
}

export interface ShareHead {
  siteName: string;
  type: 'website' | 'article';
  image: string | null;
  jsonLd: Record<string, unknown> | null;
}

/** The site's own words every head falls back on (its `defineSite` name and description). */
export interface SiteHead {
  name: string;
  description: string;
}

export function formatTitle(title: string | undefined, site: SiteHead): string {
  return title && title !== site.name ? `${title} | ${site.name}` : site.name;
}

/** The page's head with the site's defaults; the canonical URL is absolute, on `origin`, with no query. */
export function resolveHead(input: PageHeadInput | undefined, context: HeadContext, origin: string, site: SiteHead): ResolvedHead {
  const head = typeof input === 'function' ? input(context) : (input ?? {});
  const canonical = head.canonical ?? context.path;
  return {
    title: formatTitle(head.title, site),
    description: head.description ?? site.description,
    canonical: /^https?:\/\//.test(canonical) ? canonical : `${origin.replace(/\/+$/, '')}${canonical}`,
    robots: head.robots ?? true,
  };
}

/** The head of the error page: Nuxt's `{status} - {statusText}`. */
export function errorHead(statusCode: number, statusText: string, origin: string, path: string, site: SiteHead): ResolvedHead {
  return { ...resolveHead({ title: `${statusCode} - ${statusText}` }, { data: null, params: {}, path }, origin, site), robots: false };
}

export function renderHeadTags(head: ResolvedHead): string {
  return (
    `<title>${escapeHtml(head.title)}</title>` +
    `<meta name="description" content="${escapeHtml(head.description)}">` +
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">` +
    (head.robots ? '' : '<meta name="robots" content="noindex">') +
    (head.share ? renderShareTags(head, head.share) : '')
  );
}

/** Open Graph and Twitter card tags, and the JSON-LD block (not executed, so no nonce; `<` escaped). */
function renderShareTags(head: ResolvedHead, share: ShareHead): string {
  const meta = (attribute: string, name: string, value: string) => `<meta ${attribute}="${name}" content="${escapeHtml(value)}">`;
  const tags = [
    meta('property', 'og:type', share.type),
    meta('property', 'og:site_name', share.siteName),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.canonical),
    ...(share.image ? [meta('property', 'og:image', share.image)] : []),
    meta('name', 'twitter:card', share.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    ...(share.image ? [meta('name', 'twitter:image', share.image)] : []),
  ];
  if (share.jsonLd) {
    const json = JSON.stringify(share.jsonLd).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
    tags.push(`<script type="application/ld+json">${json}</script>`);
  }
  return tags.join('');
}

function upsert(doc: Document, selector: string, create: () => HTMLElement): HTMLElement {
  const found = doc.head.querySelector<HTMLElement>(selector);
  if (found) return found;
  const element = create();
  doc.head.append(element);
  return element;
}

/** Client navigations: the same tags the server wrote, updated in place. */
export function applyHead(doc: Document, head: ResolvedHead): void {
  if (doc.title !== head.title) doc.title = head.title;
  const meta = (name: string) => () => Object.assign(doc.createElement('meta'), { name });
  upsert(doc, 'meta[name="description"]', meta('description')).setAttribute('content', head.description);
  upsert(doc, 'link[rel="canonical"]', () => Object.assign(doc.createElement('link'), { rel: 'canonical' })).setAttribute(
    'href',
    head.canonical,
  );
  const robots = doc.head.querySelector('meta[name="robots"]');
  if (head.robots) robots?.remove();
  else upsert(doc, 'meta[name="robots"]', meta('robots')).setAttribute('content', 'noindex');
}
