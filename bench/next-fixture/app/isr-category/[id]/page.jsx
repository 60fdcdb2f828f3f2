// The same category page with Next.js ISR: rendered once per path, then served from Next's cache.
export { default, generateMetadata } from '../../category/[id]/page.jsx';

export const revalidate = 3600;
export const dynamicParams = true;

export function generateStaticParams() {
  return [];
}
