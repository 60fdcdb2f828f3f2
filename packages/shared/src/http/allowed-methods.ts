/**
 * 405 instead of 404 when the path exists for other methods: which methods a path has, from the
 * service's own routes (RFC 9110 §15.5.6 wants them in `Allow`).
 */
import type { FastifyInstance } from 'fastify';

const CANDIDATES = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The methods with a route for `path`. A catch-all of the whole path (`/*`) counts only where
 * `catchAllServes` says it serves the path: the renderer's page route answers every GET, but a
 * miss under /api/ is a 404 for every method.
 */
export function allowedMethods(app: FastifyInstance, path: string, catchAllServes: (path: string) => boolean = () => true): string[] {
  const allowed: string[] = [];
  for (const method of CANDIDATES) {
    const found = app.findRoute({ method, url: path });
    if (!found) continue;
    const rest = (found.params as Record<string, string | undefined>)['*'];
    if (rest !== undefined && `/${rest}` === path && !catchAllServes(path)) continue;
    allowed.push(method);
  }
  // A preflight route alone (OPTIONS under a prefix) does not make a path exist.
  return allowed.some((method) => method !== 'OPTIONS') ? allowed : [];
}
