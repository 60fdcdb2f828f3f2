/**
 * The three upstreams: `/_ipx/**` to the image service, `/api/_nuxt_icon/**` to the icons
 * service, everything else to the renderer. The gateway sets X-Forwarded-* itself.
 */
import proxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { REQUEST_ID_HEADER } from '../../../lib/constants.js';
import { withoutHopByHop } from './hop-by-hop.js';
import { onUpstreamError } from './upstream-errors.js';

export type UpstreamName = 'renderer' | 'image' | 'icons';

export interface ProxyOptions {
  rendererUrl: string;
  imageUrl: string;
  iconsUrl: string;
  timeoutMs: number;
  trustProxy: boolean;
  /** Requests under it are for assets, which upstreams serve pre-compressed. */
  assetsPrefix: string;
}

/** The scheme the visitor used: the socket's, or a trusted proxy's X-Forwarded-Proto. */
export function visitorProto(request: FastifyRequest, trustProxy: boolean): 'http' | 'https' {
  const forwarded = String(request.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim()
    .toLowerCase();
  if (trustProxy && (forwarded === 'https' || forwarded === 'http')) return forwarded;
  // The socket can be gone by the time onSend runs for a proxied POST.
  return (request.raw.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
}

/**
 * Upstream request headers: no hop-by-hop ones, client X-Forwarded-* replaced unless a trusted
 * proxy is in front.
 */
export function forwardedHeaders(
  request: FastifyRequest,
  headers: IncomingHttpHeaders,
  trustProxy: boolean,
  keepAcceptEncoding = false,
): IncomingHttpHeaders {
  const remote = request.raw.socket.remoteAddress ?? '';
  const priorFor = trustProxy ? headers['x-forwarded-for'] : undefined;
  const priorHost = trustProxy ? headers['x-forwarded-host'] : undefined;
  const out: IncomingHttpHeaders = withoutHopByHop(headers);
  out['x-forwarded-for'] = priorFor ? `${priorFor}, ${remote}` : remote;
  out['x-forwarded-proto'] = visitorProto(request, trustProxy);
  out['x-forwarded-host'] = (typeof priorHost === 'string' && priorHost) || request.headers.host || '';
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

export async function registerProxies(app: FastifyInstance, options: ProxyOptions): Promise<void> {
  const common = (upstream: UpstreamName, url: string): FastifyHttpProxyOptions => {
    const replyWithUpstreamError = onUpstreamError(upstream);
    return {
      upstream: url,
      config: { upstream },
      // The gateway writes one access line per request itself; reply-from would add two more.
      disableRequestLogging: true,
      undici: { connections: 128, pipelining: 1, keepAliveTimeout: 60_000, connect: { timeout: options.timeoutMs } },
      replyOptions: {
        timeout: options.timeoutMs,
        // reply-from types request and reply for HTTP/2 too; the gateway only serves HTTP/1.
        rewriteRequestHeaders: (request, headers) =>
          forwardedHeaders(
            request as FastifyRequest,
            headers as IncomingHttpHeaders,
            options.trustProxy,
            (request as FastifyRequest).url.startsWith(options.assetsPrefix),
          ),
        // Upstream connection headers describe the gateway's pooled socket, not the visitor's.
        rewriteHeaders: (headers) => withoutHopByHop(headers),
        onError: (reply, { error }) => replyWithUpstreamError(reply as FastifyReply, error),
        // No retry storms: never retry a 503, retry an idempotent request once on a reset keep-alive socket.
        retryDelay: ({ err, req, attempt }) =>
          attempt === 0 && (err as { code?: string } | null)?.code === 'ECONNRESET' && (req.method === 'GET' || req.method === 'HEAD')
            ? 10
            : null,
      },
    };
  };
  await app.register(proxy, { ...common('image', options.imageUrl), prefix: '/_ipx', rewritePrefix: '/_ipx' });
  await app.register(proxy, {
    ...common('icons', options.iconsUrl),
    prefix: '/api/_nuxt_icon',
    rewritePrefix: '/api/_nuxt_icon',
  });
  await app.register(proxy, common('renderer', options.rendererUrl));
}
