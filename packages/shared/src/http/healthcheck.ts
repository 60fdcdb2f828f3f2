/**
 * The container HEALTHCHECK (Dockerfile, docker-compose.yml): exits 0 when this service's
 * `/readyz` answers 200 within 2 s, that is, when it can serve, fully (`ready`) or in part
 * (`degraded`: Redis away, an upstream down); 1 when it answers 503 (it can serve nothing: the
 * gateway with no upstream and no page of its own, the icon service still preloading) or does not
 * answer. The same rule as the Kubernetes readiness probes (docs/decisions/availability.md). Its
 * one line (status and reasons) is what `docker inspect` shows for the last check.
 */
import { READY_PATH } from '../url-space/health.js';

const port = process.env.PORT ?? '3000';

interface Readiness {
  status?: string;
  reasons?: Record<string, string>;
}

try {
  const response = await fetch(`http://127.0.0.1:${port}${READY_PATH}`, { signal: AbortSignal.timeout(2000) });
  const body = (await response.json().catch(() => ({}))) as Readiness;
  const reasons = Object.entries(body.reasons ?? {}).map(([check, reason]) => `${check}: ${reason}`);
  process.stdout.write(`${response.status} ${body.status ?? ''}${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}\n`);
  process.exitCode = response.ok ? 0 : 1;
} catch (error) {
  process.stdout.write(`no answer on port ${port}: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
