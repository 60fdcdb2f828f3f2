/**
 * An upstream request that ends when its visitor leaves. reply-from hands undici no signal, so a
 * visitor who closes its connection leaves the upstream working on an answer nobody reads: for the
 * image service, a queued transform it would still run (issue 32, item 6). Here the request's own
 * signal (aborted when the visitor's connection closes before the answer is sent) travels to undici
 * beside the upstream headers, under a symbol that is never sent, and undici's abort closes the
 * upstream request, which the image service sees as its client leaving.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';

/** Where the signal rides on the headers object reply-from copies (Object.assign copies symbol keys). */
const VISITOR_SIGNAL = Symbol('visitor signal');

type SignalledHeaders = IncomingHttpHeaders & { [VISITOR_SIGNAL]?: AbortSignal };

const signals = new WeakMap<FastifyRequest, AbortSignal>();

/** A preHandler: the request's signal, aborted when its visitor's connection closes before the answer ends. */
export function watchVisitor(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  signals.set(request, controller.signal);
  done();
}

/** Whether the request's visitor left before its answer was sent: an upstream error then is nobody's. */
export function visitorLeft(request: FastifyRequest): boolean {
  return signals.get(request)?.aborted === true;
}

/** The upstream headers with the request's signal attached (see `abortablePool`). */
export function withVisitorSignal(request: FastifyRequest, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const signal = signals.get(request);
  if (signal) Object.defineProperty(headers, VISITOR_SIGNAL, { value: signal, enumerable: true });
  return headers;
}

/** What reply-from calls on an undici instance it is given. */
export interface RequestablePool {
  request: Dispatcher['request'];
  destroy(): Promise<void>;
}

/** An undici pool for reply-from whose requests carry the signal `withVisitorSignal` attached. */
export function abortablePool(origin: string, options: Pool.Options): RequestablePool {
  const pool = new Pool(origin, options);
  const request = ((opts: Dispatcher.RequestOptions, callback?: unknown) => {
    const { [VISITOR_SIGNAL]: signal, ...headers } = (opts.headers ?? {}) as SignalledHeaders;
    const options = signal ? { ...opts, headers, signal } : { ...opts, headers };
    return (pool.request as (o: Dispatcher.RequestOptions, c?: unknown) => unknown)(options, callback);
  }) as Dispatcher['request'];
  return { request, destroy: () => pool.destroy() };
}
