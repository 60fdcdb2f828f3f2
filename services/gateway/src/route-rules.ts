/**
 * The route rules of the current build at the gateway: redirects answer before any upstream
 * is asked; `headers` and `robots: false` are set on the response. Before any rule, a page asked
 * for in another spelling (`/posts/hell%6F/`, `/posts/./hello`, `/posts/hello#x`) is sent to its
 * canonical path (packages/shared/src/http/canonical-path.ts, which the renderer applies too), so each page has one
 * cache entry and one address.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '@tern/shared/errors/errors';
import { canonicalRedirect } from '@tern/shared/http/canonical-path';
import { buildRedirectLocation, type MatchedRouteRules } from '@tern/shared/route-rules/route-rules';
import { ruleAnswerHeaders } from '@tern/shared/route-rules/kinds';
import type { CurrentBuild } from './current-build.js';
import { isHealthPath } from '@tern/shared/url-space/health';
import type { AnswerHeaders, Step } from './step.js';

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

/**
 * Finds the request's rules (every later phase and the answer read them) and answers a redirect.
 * Before any rule, a page (the request state says which paths are) asked for in another
 * spelling is sent to its canonical one. Synchronous: it runs on every request, cache hits included.
 */
export function routeRulesStep(build: CurrentBuild): Step {
  return (request, reply, state) => {
    // The canonical path first: no rule is matched and no cache key made on another spelling.
    const canonical = state.page && (request.method === 'GET' || request.method === 'HEAD') ? canonicalRedirect(request.url) : null;
    if (canonical) {
      toCanonical(reply, canonical);
      return true;
    }
    if (isHealthPath(state.path)) return false;
    const rules = build.matcher().match(state.path);
    state.routeRules = rules;
    // A redirect rule: its target is built with its own care for what the path carries.
    if (!rules.redirect) return false;
    redirect(request, reply, rules);
    return true;
  };
}

/** The rules' headers on an answer that went through Fastify (a cache hit adds them itself, render-cache/hit-response.ts). */
export const routeRuleHeaders: AnswerHeaders = (_request, reply, state) => {
  const rules = state.routeRules;
  if (!rules) return;
  // Every answer counts as proxied but the build files: the gateway's other own answers (redirects,
  // client files, cached pages) stand in for the renderer's.
  for (const [name, value] of ruleHeaders(rules, !state.buildFile, reply.statusCode)) reply.header(name, value);
};

/**
 * The headers the rules add to an answer: each kind's own (packages/shared/src/route-rules/kinds.ts), the same on
 * a cache hit written straight to the socket (render-cache/hit-response.ts).
 */
export function ruleHeaders(rules: MatchedRouteRules, proxied: boolean, status: number): [string, string][] {
  return ruleAnswerHeaders(rules, { proxied, status });
}
