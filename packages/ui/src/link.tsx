/**
 * The site's link: React Router's `Link`, except that on the server a link to a path of this site
 * (`/guides/intro`) is drawn without resolving it against the route matches. React Router serialises the matches
 * to JSON for every link on every render to resolve relative links; an absolute path needs none
 * of it, and a page with 43 links paid 7 % of its render for it
 * (docs/decisions/performance.md). Anything else (a relative path, an object, a URL, `reloadDocument`,
 * `prefetch`, `mask`) is React Router's own `Link`, unchanged.
 *
 * The browser takes React Router's `Link` for every link: its markup is the same (link.test.tsx),
 * so hydration sees no difference, its clicks are React Router's own, and the browser's bundle
 * carries nothing more (`import.meta.env.SSR` is false there, and the server's part is dropped).
 */
import { forwardRef, type ComponentProps, type ForwardedRef } from 'react';
import { Link as RouterLink, type LinkProps } from 'react-router';

export type { LinkProps };

/** A path of this site with nothing that needs React Router's resolution. */
function isSitePath(props: LinkProps): props is LinkProps & { to: string } {
  const { to, relative, reloadDocument, prefetch, mask } = props;
  return (
    typeof to === 'string' &&
    to.startsWith('/') &&
    !to.startsWith('//') &&
    relative === undefined &&
    !reloadDocument &&
    (prefetch === undefined || prefetch === 'none') &&
    mask === undefined
  );
}

/** Props of React Router's link that are not the anchor's. */
const ROUTER_ONLY = new Set<string>([
  'to',
  'discover',
  'replace',
  'state',
  'preventScrollReset',
  'viewTransition',
  'prefetch',
  'defaultShouldRevalidate',
  'onClick',
]);

/** The server's link to a path: the `<a>` React Router draws for it, with no resolution and no handlers (nothing runs them there). */
export const ServerPathLink = /* @__PURE__ */ forwardRef<HTMLAnchorElement, LinkProps & { to: string }>(
  function ServerPathLink(props, ref) {
    return <a {...anchorOf(props, ref)} />;
  },
);

/**
 * The `<a>`'s props: the link's own but React Router's, then `ref`, `href` and the route discovery
 * mark, in the order React Router's link writes them (the markup is the same either way). Made by
 * adding to one object: Node 20's V8 copies an object rest that names what it leaves out
 * (`{ to, state, ...anchor }`) in its runtime, and a literal that spreads an object of many shapes
 * and then adds to it (`<a {...anchor} href={to} />`) takes its slow path for every added property:
 * 1.5 µs a link against 0.06 µs, for each of a page's links (docs/decisions/performance.md, stop 43).
 */
function anchorOf(props: LinkProps & { to: string }, ref: ForwardedRef<HTMLAnchorElement>): ComponentProps<'a'> {
  const anchor: Record<string, unknown> = {};
  for (const name in props) if (!ROUTER_ONLY.has(name)) anchor[name] = props[name as keyof LinkProps];
  anchor.ref = ref;
  anchor.href = props.to;
  anchor['data-discover'] = (props.discover ?? 'render') === 'render' ? 'true' : undefined;
  return anchor;
}

/** React Router's `Link`, drawn on the server without resolving a path of this site. */
export const ServerLink = /* @__PURE__ */ forwardRef<HTMLAnchorElement, LinkProps>(function ServerLink(props, ref) {
  return isSitePath(props) ? <ServerPathLink ref={ref} {...props} /> : <RouterLink ref={ref} {...props} />;
});

export const Link: typeof RouterLink = import.meta.env.SSR ? ServerLink : RouterLink;
