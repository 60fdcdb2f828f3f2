/** Every service's health endpoints (packages/shared/src/http/service.ts). Browser-safe: no imports. */

/** Alive: answers 200 while the process runs. */
export const HEALTH_PATH = '/healthz';
/** Can serve: 200 ready or degraded, 503 when it cannot serve at all. */
export const READY_PATH = '/readyz';

const HEALTH_PATHS: ReadonlySet<string> = new Set([HEALTH_PATH, READY_PATH]);

/** True for exactly `/healthz` or `/readyz` (a path, no query). */
export function isHealthPath(path: string): boolean {
  return HEALTH_PATHS.has(path);
}
