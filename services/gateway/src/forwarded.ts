/**
 * The one place the gateway reads forwarding headers (X-Forwarded-For/Proto/Host, Forwarded,
 * X-Real-IP…). With TRUST_PROXY=false the gateway is the edge: whatever a client claims there
 * changes nothing (not the scheme, not HSTS, not the host pages name, not the address the login
 * limit counts); upstreams get the gateway's own values only. With TRUST_PROXY=true the proxy in
 * front wrote them, and they are kept and extended.
 */
import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { REQUEST_ID_HEADER } from '../../../lib/constants.js';
import { withoutHopByHop } from './hop-by-hop.js';

/** Headers a client could use to claim another address, scheme, host or path; dropped unless trusted. */
const CLAIMS = [
  'forwarded',
  'x-real-ip',
  'x-client-ip',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-original-url',
  'x-rewrite-url',
];

function firstOf(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value[0] : value;
  return (text ?? '').split(',')[0]!.trim().toLowerCase();
}

/** The scheme the visitor used: the socket's, or a trusted proxy's X-Forwarded-Proto. */
export function visitorProto(request: FastifyRequest, trustProxy: boolean): 'http' | 'https' {
  const forwarded = firstOf(request.headers['x-forwarded-proto']);
  if (trustProxy && (forwarded === 'https' || forwarded === 'http')) return forwarded;
  // The socket can be gone by the time onSend runs for a proxied POST.
  return (request.raw.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
}

/** The host the visitor asked for: the Host header, or a trusted proxy's X-Forwarded-Host. */
export function visitorHost(request: FastifyRequest, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-host'] : undefined;
  return (typeof forwarded === 'string' && forwarded) || request.headers.host || '';
}

/**
 * Upstream request headers: no hop-by-hop ones, X-Forwarded-* written by the gateway (the
 * trusted proxy's chain extended), client claims dropped when untrusted, the request id.
 */
export function forwardedHeaders(
  request: FastifyRequest,
  headers: IncomingHttpHeaders,
  trustProxy: boolean,
  keepAcceptEncoding = false,
): IncomingHttpHeaders {
  const remote = request.raw.socket.remoteAddress ?? '';
  const priorFor = trustProxy ? headers['x-forwarded-for'] : undefined;
  const out: IncomingHttpHeaders = withoutHopByHop(headers);
  if (!trustProxy) for (const name of CLAIMS) delete out[name];
  out['x-forwarded-for'] = priorFor ? `${String(priorFor)}, ${remote}` : remote;
  out['x-forwarded-proto'] = visitorProto(request, trustProxy);
  out['x-forwarded-host'] = visitorHost(request, trustProxy);
  out[REQUEST_ID_HEADER] = request.id;
  // The client's `Expect: 100-continue` was answered here (lib/request-guards.ts); undici refuses to send it.
  delete out.expect;
  // The trace context this gateway's span made (lib/telemetry), also for the render cache's fills.
  if (request.headers.traceparent) out.traceparent = request.headers.traceparent;
  // The gateway compresses pages for the visitor; upstreams answer plain and spend no CPU on it.
  // Assets keep the header: the renderer serves their build-time .br/.gz twins as they are.
  if (!keepAcceptEncoding) delete out['accept-encoding'];
  return out;
}

/** The origin the renderer will name in the page, from the same values the gateway sends it. */
export function forwardedOrigin(request: FastifyRequest, trustProxy: boolean): string {
  return `${visitorProto(request, trustProxy)}://${visitorHost(request, trustProxy)}`;
}
