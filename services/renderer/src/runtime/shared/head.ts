/**
 * Per-page head: title, description and canonical URL. The server writes the tags into the
 * document template; on client navigations `applyHead` updates the same tags. Browser-safe.
 */
import { escapeHtml } from '#lib/errors.js';

export interface PageHead {
  title?: string;
  description?: string;
  /** A path (`/posts/hello`) or an absolute URL; defaults to the page's own path. */
  canonical?: string;
  /** False adds `noindex`. */
  robots?: boolean;
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
    (head.robots ? '' : '<meta name="robots" content="noindex">')
  );
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
