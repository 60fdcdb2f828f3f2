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
import { Link as RouterLink, NavLink as RouterNavLink, useLocation, type LinkProps, type NavLinkProps } from 'react-router';

export type { LinkProps, NavLinkProps };

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

/** A copy of `props` but `names`, in their order, made by adding to one object (see anchorOf). */
function propsWithout(props: object, names: ReadonlySet<string>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name in props) if (!names.has(name)) copy[name] = (props as Record<string, unknown>)[name];
  return copy;
}

/**
 * The `<a>`'s props: the link's own but React Router's, then `ref`, `href` and the route discovery
 * mark, in the order React Router's link writes them (the markup is the same either way). Made by
 * adding to one object: Node 20's V8 copies an object rest that names what it leaves out
 * (`{ to, state, ...anchor }`) in its runtime, and a literal that spreads an object of many shapes
 * and then adds to it (`<a {...anchor} href={to} />`) takes its slow path for every added property:
 * 1.5 µs a link against 0.06 µs, for each of a page's links (docs/decisions/performance.md, stop 43).
 */
function anchorOf(props: LinkProps & { to: string }, ref: ForwardedRef<HTMLAnchorElement>): ComponentProps<'a'> {
  const anchor = propsWithout(props, ROUTER_ONLY);
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

/**
 * A path whose URL-encoded form is itself: no dot segment, no doubled slash, nothing to escape.
 * React Router compares the encoded form (one URL parse a link) with the location.
 */
const PLAIN_PATH = /^\/(?:[\w~-]+\/)*(?:[\w~-]+)?$/;

/**
 * React Router's `NavLink` for a plain path, on the server: the same active test, class, style,
 * children and `aria-current`, with no pending navigation or view transition (there are none on
 * the server), drawn by the server's Link. Its own resolves and URL-parses the path on every render
 * (a header's four navigation links were 3 % of a listing page's render; docs/decisions/performance.md,
 * stop 44). Anything else is React Router's own.
 */
export const ServerNavLink = /* @__PURE__ */ forwardRef<HTMLAnchorElement, NavLinkProps>(function ServerNavLink(props, ref) {
  const location = useLocation();
  const { to } = props;
  if (typeof to !== 'string' || !PLAIN_PATH.test(to) || props.relative !== undefined) return <RouterNavLink ref={ref} {...props} />;
  const caseSensitive = props.caseSensitive ?? false;
  const here = caseSensitive ? location.pathname : location.pathname.toLowerCase();
  const target = caseSensitive ? to : to.toLowerCase();
  const slashAt = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const isActive = here === target || (!props.end && here.startsWith(target) && here.charAt(slashAt) === '/');
  const state = { isActive, isPending: false, isTransitioning: false };
  const { className = '', style, children } = props;
  // The link's props in the order React Router's NavLink gives them (the anchor's attributes follow it).
  const link = propsWithout(props, NAV_LINK_ONLY);
  const ariaCurrent = props['aria-current'];
  link['aria-current'] = isActive ? (ariaCurrent === undefined ? 'page' : ariaCurrent) : undefined;
  link.className = typeof className === 'function' ? className(state) : [className, isActive ? 'active' : null].filter(Boolean).join(' ');
  link.style = typeof style === 'function' ? style(state) : style;
  link.to = to;
  link.viewTransition = props.viewTransition;
  link.children = typeof children === 'function' ? children(state) : children;
  link.ref = ref;
  return <ServerLink {...(link as unknown as LinkProps)} />;
});

/** NavLink's own props, and those it sets on its Link itself. */
const NAV_LINK_ONLY = new Set<string>(['aria-current', 'caseSensitive', 'className', 'end', 'style', 'to', 'viewTransition', 'children']);

export const NavLink: typeof RouterNavLink = import.meta.env.SSR ? ServerNavLink : RouterNavLink;
