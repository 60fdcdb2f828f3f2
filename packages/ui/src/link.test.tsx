import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  Link as RouterLink,
  NavLink as RouterNavLink,
  StaticRouterProvider,
  type LinkProps,
  type NavLinkProps,
} from 'react-router';
import { describe, expect, it } from 'vitest';
import { ServerLink as Link, ServerNavLink as NavLink } from './link.js';

/** The markup of `element` rendered at `url` inside a data router, as a page is. */
async function markupAt(url: string, element: React.ReactNode): Promise<string> {
  const routes = [{ path: '*', element }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://site.test${url}`));
  if (context instanceof Response) throw new Error('unexpected redirect');
  return renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

const both = (props: LinkProps) => (
  <>
    <Link {...props} />
    <RouterLink {...props} />
  </>
);

async function pair(url: string, props: LinkProps): Promise<[string, string]> {
  const html = await markupAt(url, both(props));
  const links = html.match(/<a [^>]*>.*?<\/a>/g) ?? [];
  expect(links).toHaveLength(2);
  return [links[0]!, links[1]!];
}

describe("the server's Link", () => {
  it.each<[string, LinkProps]>([
    ['a path', { to: '/guides/intro', children: 'Intro' }],
    ['a path with a query and a hash', { to: '/search?q=a%20b#top', className: 'x', children: 'Search' }],
    ['a path with attributes', { to: '/a', 'aria-label': 'A', title: 't', children: 'A' } as LinkProps],
    ['no route discovery', { to: '/a', discover: 'none', children: 'A' }],
  ])('draws %s as React Router does', async (_what, props) => {
    const [ours, theirs] = await pair('/guides/other', props);
    expect(ours).toBe(theirs);
  });

  it.each<[string, LinkProps]>([
    ['a relative path', { to: 'next', children: 'Next' }],
    ['a parent path', { to: '..', children: 'Up' }],
    ['an object', { to: { pathname: '/a', search: '?b=1' }, children: 'A' }],
    ['a URL of another site', { to: 'https://example.com/x', children: 'X' }],
    ['a protocol-relative URL', { to: '//example.com/x', children: 'X' }],
    ['a document reload', { to: '/a', reloadDocument: true, children: 'A' }],
  ])('leaves %s to React Router', async (_what, props) => {
    const [ours, theirs] = await pair('/guides/other/page', props);
    expect(ours).toBe(theirs);
  });
});

describe("the server's NavLink", () => {
  async function navPair(url: string, props: NavLinkProps): Promise<[string, string]> {
    const html = await markupAt(
      url,
      <>
        <NavLink {...props} />
        <RouterNavLink {...props} />
      </>,
    );
    const links = html.match(/<a [^>]*>.*?<\/a>/g) ?? [];
    expect(links).toHaveLength(2);
    return [links[0]!, links[1]!];
  }

  it.each<[string, string, NavLinkProps]>([
    ['the page it names', '/saved', { to: '/saved', end: true, children: 'Saved' }],
    ['another page', '/about', { to: '/saved', end: true, children: 'Saved' }],
    ['home, from home', '/', { to: '/', end: true, children: 'Home' }],
    ['home, from another page with `end`', '/about', { to: '/', end: true, children: 'Home' }],
    ['home, from another page without `end`', '/about', { to: '/', children: 'Home' }],
    ['a parent of the page, without `end`', '/guides/intro', { to: '/guides', children: 'Guides' }],
    ['a parent of the page, with `end`', '/guides/intro', { to: '/guides', end: true, children: 'Guides' }],
    ['a path that only starts the same', '/guidesx', { to: '/guides', children: 'Guides' }],
    ['a trailing slash', '/guides/intro', { to: '/guides/', children: 'Guides' }],
    ['another case', '/Saved', { to: '/saved', children: 'Saved' }],
    ['another case, case-sensitive', '/Saved', { to: '/saved', caseSensitive: true, children: 'Saved' }],
    ['a class', '/saved', { to: '/saved', className: 'nav', children: 'Saved' }],
    ['a class, not active', '/about', { to: '/saved', className: 'nav', children: 'Saved' }],
    [
      'functions of the state',
      '/saved',
      {
        to: '/saved',
        className: ({ isActive }) => (isActive ? 'on' : 'off'),
        style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }),
        children: ({ isActive, isPending }) => `Saved ${isActive} ${isPending}`,
      },
    ],
    ['its own aria-current', '/saved', { to: '/saved', 'aria-current': 'location', children: 'Saved' }],
    ['other attributes', '/saved', { to: '/saved', title: 't', discover: 'none', children: 'Saved' } as NavLinkProps],
  ])('draws %s as React Router does', async (_what, url, props) => {
    const [ours, theirs] = await navPair(url, props);
    expect(ours).toBe(theirs);
  });

  it.each<[string, NavLinkProps]>([
    ['a path to encode', { to: '/a b', children: 'A' }],
    ['a dot segment', { to: '/a/../b', children: 'A' }],
    ['a query', { to: '/search?q=a', children: 'A' }],
    ['a relative path', { to: 'next', children: 'Next' }],
    ['an object', { to: { pathname: '/a' }, children: 'A' }],
  ])('leaves %s to React Router', async (_what, props) => {
    const [ours, theirs] = await navPair('/a', props);
    expect(ours).toBe(theirs);
  });
});
