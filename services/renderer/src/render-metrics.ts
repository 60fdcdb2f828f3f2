/**
 * The renderer's own metrics: render time (until the answer starts: route data, then the React
 * shell or the payload) and payload size (the JSON a client navigation fetches, and the same data
 * inlined in a page), by kind. The full streamed time is http_server_request_duration_seconds.
 */
import type { FastifyInstance } from 'fastify';
import { Histogram } from 'prom-client';
import { HTTP_DURATION_BUCKETS } from '@tern/shared/telemetry/metrics';

export type RenderKind = 'page' | 'payload' | 'shell';

export interface RenderMetrics {
  /** Runs `answer`, recording how long it took to start the answer. */
  timed<T>(kind: RenderKind, answer: () => T | Promise<T>): Promise<T>;
  payloadBytes(kind: 'json' | 'inline', bytes: number): void;
}

/** 256 B to 4 MiB, by factors of 4. */
const SIZE_BUCKETS = [256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304];

export function registerRenderMetrics(app: FastifyInstance): RenderMetrics {
  const registry = app.telemetry.metrics.registry;
  const renderTime = new Histogram({
    name: 'renderer_render_duration_seconds',
    help: 'Time until the answer starts: route data and the React shell (page), or the payload; by kind.',
    labelNames: ['kind'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  const payloadSize = new Histogram({
    name: 'renderer_payload_bytes',
    help: 'Size of the page data: json (a _payload.json answer) or inline (in a rendered page).',
    labelNames: ['kind'] as const,
    buckets: SIZE_BUCKETS,
    registers: [registry],
  });
  // A _payload.json answer is serialised by Fastify: its size is known only here.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.routeKind === 'payload' && typeof payload === 'string') payloadSize.observe({ kind: 'json' }, Buffer.byteLength(payload));
    done(null, payload);
  });
  return {
    async timed(kind, answer) {
      const end = renderTime.startTimer({ kind });
      try {
        return await answer();
      } finally {
        end();
      }
    },
    payloadBytes(kind, bytes) {
      payloadSize.observe({ kind }, bytes);
    },
  };
}
