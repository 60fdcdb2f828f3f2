/**
 * The part of a page's head only crawlers read (Open Graph, Twitter card, JSON-LD): resolved on the
 * server alone, so none of it is in the browser's bundle; client navigations leave these tags as
 * the first page wrote them.
 */
import type { HeadContext, PageHeadInput, ShareHead, SiteHead } from '../shared/head.js';

/** A path becomes an address on `origin`; an absolute URL is kept. */
function absolute(url: string, origin: string): string {
  return /^https?:\/\//.test(url) ? url : `${origin.replace(/\/+$/, '')}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** `canonical`: the page's absolute address, the JSON-LD's `url` unless the page gave one. */
export function shareHeadOf(
  input: PageHeadInput | undefined,
  context: HeadContext,
  origin: string,
  site: SiteHead,
  canonical: string,
): ShareHead {
  const head = typeof input === 'function' ? input(context) : (input ?? {});
  const image = head.image ? absolute(head.image, origin) : null;
  return {
    siteName: site.name,
    type: head.type ?? 'website',
    image,
    jsonLd: head.jsonLd ? { url: canonical, ...(image ? { image } : {}), ...head.jsonLd } : null,
  };
}
