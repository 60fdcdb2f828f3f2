/**
 * What the gateway tells upstreams about the visitor. Fastify reads X-Forwarded-* (its `trustProxy`,
 * from TRUST_PROXY: packages/shared/src/http/trust-proxy.ts). With TRUST_PROXY=0 the gateway is the edge: whatever a
 * client claims changes nothing (not the scheme, not HSTS, not the host pages name, not the address
 * the login limit counts). From a proxy TRUST_PROXY names, they are kept and the chain extended.
 */
import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { REQUEST_ID_HEADER } from '@tern/shared/config/constants';
import { withoutHopByHop } from './hop-by-hop.js';

/** Headers a client could use to claim another address, scheme, host or path; dropped unless trusted. */
const CLAIMS = new Set([
  'forwarded',
  'x-real-ip',
  'x-client-ip',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-original-url',
  'x-rewrite-url',
]);

/**
 * The chain Fastify believed (its `ips`: the peer first, then each trusted hop's X-Forwarded-For
 * entry), or the peer alone when nobody is trusted. More than one entry means the peer is a proxy
 * TRUST_PROXY names: its other claims (Forwarded, X-Real-IP…) stand too.
 */
function trustedChain(request: FastifyRequest): string[] {
  return request.ips ?? [request.ip];
}

/** The scheme the visitor used: the socket's, or a trusted proxy's X-Forwarded-Proto (Fastify's `protocol`). */
export function visitorProto(request: FastifyRequest): 'http' | 'https' {
  // `protocol` is undefined once the socket is gone (onSend of a proxied POST), and a proxy may write HTTPS.
  return String(request.protocol).toLowerCase() === 'https' ? 'https' : 'http';
}

/**
 * Upstream request headers: no hop-by-hop ones, X-Forwarded-* written by the gateway (the
 * trusted proxy's chain extended), client claims dropped when untrusted, the request id.
 */
export function forwardedHeaders(request: FastifyRequest, headers: IncomingHttpHeaders, keepAcceptEncoding = false): IncomingHttpHeaders {
  // Read once: Fastify parses the header again at every `ips`.
  const chain = trustedChain(request);
  const untrusted = chain.length <= 1;
  const out: IncomingHttpHeaders = withoutHopByHop(
    headers,
    (name) =>
      (untrusted && CLAIMS.has(name)) ||
      // The client's `Expect: 100-continue` was answered here (packages/shared/src/http/request-guards.ts); undici refuses to send it.
      name === 'expect' ||
      // The gateway compresses pages for the visitor; upstreams answer plain and spend no CPU on it.
      // Assets keep the header: the renderer serves their build-time .br/.gz twins as they are.
      (!keepAcceptEncoding && name === 'accept-encoding'),
  );
  // The visitor's address first, then the proxies TRUST_PROXY names, then the gateway's peer; what a
  // client wrote beyond the first untrusted hop is dropped.
  out['x-forwarded-for'] = chain.toReversed().join(', ');
  out['x-forwarded-proto'] = visitorProto(request);
  // The Host header, or a trusted proxy's X-Forwarded-Host (Fastify's `host`).
  out['x-forwarded-host'] = request.host;
  out[REQUEST_ID_HEADER] = request.id;
  // The trace context this gateway's span made (lib/telemetry), also for the render cache's fills.
  if (request.headers.traceparent) out.traceparent = request.headers.traceparent;
  return out;
}
