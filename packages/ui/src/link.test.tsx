import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, Link as RouterLink, StaticRouterProvider, type LinkProps } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ServerLink as Link } from './link.js';

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
