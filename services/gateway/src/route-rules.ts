/**
 * The route rules of the current build at the gateway: redirects answer before any upstream
 * is asked; `headers` and `robots: false` are set on the response.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../../lib/errors.js';
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

export function registerRouteRules(app: FastifyInstance, build: CurrentBuild): void {
  app.decorateRequest('routeRules', null);

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (OWN_PATHS.has(path)) return;
    const rules = build.matcher().match(path);
    request.routeRules = rules;
    if (rules.redirect) return redirect(request, reply, rules);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rules = request.routeRules;
    if (!rules) return payload;
    if (rules.robots === false) reply.header('x-robots-tag', 'noindex');
    // Rule headers apply to proxied answers only: the build files keep their own cache policy,
    // and a long cache lifetime must never stick to an error.
    const proxied = (request.routeOptions.config as { upstream?: string }).upstream !== 'gateway';
    if (rules.headers && proxied && reply.statusCode < 400) {
      for (const [name, value] of Object.entries(rules.headers)) reply.header(name, value);
    }
    return payload;
  });
}
