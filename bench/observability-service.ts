/**
 * A service process for bench/observability.ts: `node observability-service.js <service> <on|off>`.
 * `off` turns per-request telemetry off before the service's own main module builds its app, so
 * the benchmark compares the real services with and without it, nothing else changed.
 */
import { disableRequestTelemetryForBenchmark } from '@tern/shared/telemetry/request-telemetry';

const [service, mode] = process.argv.slice(2);
if (!service || !['gateway', 'renderer'].includes(service) || !['on', 'off'].includes(mode ?? '')) {
  process.stderr.write('usage: observability-service.js <gateway|renderer> <on|off>\n');
  process.exit(2);
}
if (mode === 'off') disableRequestTelemetryForBenchmark();
await import(`@tern/${service}/main`);
