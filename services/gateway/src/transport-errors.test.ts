/**
 * One reading of a transport error: the classifier, the answer the proxy sends (its onError, through
 * the one error handler) and the metric's reason agree, wrapped errors included.
 */
import { channel } from 'node:diagnostics_channel';
import { pino } from 'pino';
import type { Counter } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createService } from '@tern/shared/http/service';
import { registerGatewayMetrics } from './metrics.js';
import { classifyTransportError, type TransportReason } from './transport-errors.js';
import { onUpstreamError, upstreamError } from './upstream-errors.js';

const coded = (code: string, message = code, cause?: unknown) => Object.assign(new Error(message, { cause }), { code });
/** reply-from's wrapper for an undici error it does not name (FST_REPLY_FROM_INTERNAL_SERVER_ERROR). */
const wrapped = (cause: unknown) => coded('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', 'connect ETIMEDOUT 10.0.0.9:3001', cause);

const CASES: Array<[string, unknown, TransportReason, number]> = [
  ['a refused connection', coded('ECONNREFUSED'), 'refused', 502],
  ['a refused connection on every address', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), 'refused', 502],
  ['a reset', coded('ECONNRESET'), 'reset', 502],
  ["reply-from's reset wrapper", coded('ECONNRESET', 'Connection Reset', coded('ECONNRESET')), 'reset', 502],
  ["undici's closed socket", coded('UND_ERR_SOCKET'), 'reset', 502],
  ['a broken pipe', coded('EPIPE'), 'reset', 502],
  ['an OS timeout', coded('ETIMEDOUT'), 'timeout', 504],
  ['a wrapped OS timeout', wrapped(coded('ETIMEDOUT')), 'timeout', 504],
  ['a timeout two wrappers deep', new Error('failed', { cause: wrapped(coded('ETIMEDOUT')) }), 'timeout', 504],
  ["undici's headers timeout", coded('UND_ERR_HEADERS_TIMEOUT'), 'timeout', 504],
  ["undici's body timeout", coded('UND_ERR_BODY_TIMEOUT'), 'timeout', 504],
  ["undici's connect timeout", coded('UND_ERR_CONNECT_TIMEOUT'), 'timeout', 504],
  [
    "reply-from's gateway timeout",
    coded('FST_REPLY_FROM_GATEWAY_TIMEOUT', 'Gateway Timeout', coded('UND_ERR_HEADERS_TIMEOUT')),
    'timeout',
    504,
  ],
  ['an AbortSignal.timeout', new DOMException('The operation timed out', 'TimeoutError'), 'timeout', 504],
  ['an unreachable host', coded('EHOSTUNREACH'), 'unreachable', 502],
  [
    'an unknown host behind reply-from',
    coded('FST_REPLY_FROM_SERVICE_UNAVAILABLE', 'Service Unavailable', coded('ENOTFOUND')),
    'unreachable',
    502,
  ],
  ['a DNS failure', coded('EAI_AGAIN'), 'unreachable', 502],
  ["undici's abort", coded('UND_ERR_ABORTED'), 'aborted', 502],
  ['an AbortError', new DOMException('aborted', 'AbortError'), 'aborted', 502],
  ['an error without a code', new Error('something else'), 'other', 502],
  ['a thrown string', 'not an error', 'other', 502],
];

describe('the transport-error classifier', () => {
  it.each(CASES)('reads %s', (_name, error, reason, status) => {
    expect(classifyTransportError(error)).toMatchObject({ reason, status });
  });

  it('says when nothing reached the upstream, and when a GET may go to another renderer', () => {
    expect(classifyTransportError(wrapped(coded('ECONNREFUSED')))).toMatchObject({ unsent: true, retryable: true });
    expect(classifyTransportError(coded('UND_ERR_CONNECT_TIMEOUT'))).toMatchObject({ unsent: true, retryable: true });
    expect(classifyTransportError(coded('UND_ERR_SOCKET'))).toMatchObject({ unsent: false, retryable: true });
    expect(classifyTransportError(coded('UND_ERR_HEADERS_TIMEOUT'))).toMatchObject({ unsent: false, retryable: false });
  });

  it('stops on a cause that points back at itself', () => {
    const loop: Error & { cause?: unknown } = coded('ECONNRESET');
    loop.cause = loop;
    expect(classifyTransportError(loop).reason).toBe('reset');
  });
});

/** A gateway-like service: the proxy's onError on one route, and the gateway's metrics. */
async function gatewayWith(error: unknown) {
  const app = createService({ name: 'gateway', logger: pino({ level: 'silent' }), production: true });
  const origin = 'http://127.0.0.1:1';
  registerGatewayMetrics(app, { rendererUrl: origin, imageUrl: origin, iconsUrl: origin });
  const replyWithUpstreamError = onUpstreamError('renderer');
  app.get('/page', (request, reply) => replyWithUpstreamError(reply, error as Error));
  await app.ready();
  // What undici publishes for a request that failed without an answer.
  const request = { origin };
  channel('undici:request:create').publish({ request });
  channel('undici:request:error').publish({ request, error });
  const answer = await app.inject({ url: '/page', headers: { accept: 'application/json' } });
  const counter = app.telemetry.metrics.registry.getSingleMetric('gateway_upstream_errors_total') as Counter;
  const counted = (await counter.get()).values.filter((value) => value.value > 0).map((value) => value.labels.reason);
  await app.close();
  return { answer, counted };
}

describe('the proxy answer, the upstream error and the metric agree', () => {
  it.each(CASES)('on %s', async (_name, error, reason, status) => {
    const { answer, counted } = await gatewayWith(error);
    const { code } = classifyTransportError(error);
    expect([answer.statusCode, answer.json().code]).toEqual([status, code]);
    expect(upstreamError('renderer', error)).toMatchObject({ statusCode: status, code });
    expect(counted).toEqual([reason]);
  });

  it('answers a wrapped ETIMEDOUT 504 and counts it as reason="timeout" (it was counted "other")', async () => {
    const { answer, counted } = await gatewayWith(wrapped(coded('ETIMEDOUT')));
    expect(answer.statusCode).toBe(504);
    expect(answer.json()).toMatchObject({ code: 'GW_UPSTREAM_TIMEOUT', message: 'The service did not answer in time, try again' });
    expect(counted).toEqual(['timeout']);
  });
});
