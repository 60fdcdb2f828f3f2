/**
 * The route rules of the current build at the gateway: redirects answer before any upstream
 * is asked; `headers` and `robots: false` are set on the response. Before any rule, a page asked
 * for in another spelling (`/posts/hell%6F/`) is sent to its canonical path (lib/canonical-path.ts,
 * which the renderer applies too), so each page has one cache entry and one address.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../../lib/errors.js';
import { canonicalRedirect } from '../../../lib/canonical-path.js';
import { buildRedirectLocation, type MatchedRouteRules } from '../../../lib/route-rules.js';
import type { CurrentBuild } from './current-build.js';

const OWN_PATHS = new Set(['/healthz', '/readyz']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The rules of the current build for this request's path. */
    routeRules: MatchedRouteRules | null;
  }
}

function redirectBody(location: string): string {
  const url = escapeHtml(location);
  return `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=${url}"></head><body>Redirecting to <a href="${url}">${url}</a></body></html>`;
}

function redirect(request: FastifyRequest, reply: FastifyReply, rules: MatchedRouteRules): FastifyReply {
  const location = buildRedirectLocation(rules.redirect!, request.url, rules.redirectRest);
  return reply.code(rules.redirect!.statusCode).header('location', location).type('text/html; charset=utf-8').send(redirectBody(location));
}

/** 308: permanent, and a HEAD stays a HEAD. */
function toCanonical(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(308).header('location', location).type('text/html; charset=utf-8').send(redirectBody(location));
}

/** `isPage` says which paths are pages (not assets, the API or images), whose spelling is the site's. */
export function registerRouteRules(app: FastifyInstance, build: CurrentBuild, isPage: (url: string) => boolean): void {
  app.decorateRequest('routeRules', null);

  // A callback hook: it runs on every request, cache hits included. A redirect answers and ends the hooks.
  app.addHook('onRequest', (request, reply, done) => {
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    if (OWN_PATHS.has(path)) return done();
    const rules = build.matcher().match(path);
    request.routeRules = rules;
    // A redirect rule first: its target is built with its own care for what the path carries.
    if (rules.redirect) return void redirect(request, reply, rules);
    const canonical =
      (request.method === 'GET' || request.method === 'HEAD') && isPage(request.url) ? canonicalRedirect(request.url) : null;
    if (canonical) return void toCanonical(reply, canonical);
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rules = request.routeRules;
    if (!rules) return payload;
    const proxied = (request.routeOptions.config as { upstream?: string }).upstream !== 'gateway';
    for (const [name, value] of ruleHeaders(rules, proxied, reply.statusCode)) reply.header(name, value);
    return payload;
  });
}

/** The headers the rules add to an answer (also to a cache hit, render-cache/hit-response.ts). */
export function ruleHeaders(rules: MatchedRouteRules, proxied: boolean, status: number): [string, string][] {
  const headers: [string, string][] = [];
  if (rules.robots === false) headers.push(['x-robots-tag', 'noindex']);
  // Rule headers apply to proxied answers only: the build files keep their own cache policy,
  // and a long cache lifetime must never stick to an error.
  if (rules.headers && proxied && status < 400) headers.push(...Object.entries(rules.headers));
  return headers;
}
