/**
 * A page goes to the renderer from the request path itself (pipeline.ts, the last phase): a GET or
 * HEAD without a body is sent upstream on undici's dispatcher as soon as the phases before let it
 * pass, and the renderer's answer is sent through Fastify's reply, so every answer hook and
 * compression apply as to any answer: a page the renderer sent whole in one piece, a streamed one
 * as it streams. Routed on to @fastify/http-proxy, a proxied page cost the
 * gateway about 40 % more CPU (a median 1.34 ms against 0.95, interleaved): three URLs and a
 * traversal check per request, a body parser and a preHandler a GET does not need, and reply-from's
 * layers over undici (docs/decisions/performance.md, stop 42). Requests with a body keep that route
 * (proxy.ts), which reads them whole first.
 *
 * What the route did, this does the same way: the same forwarded headers and timeouts, a reset
 * keep-alive socket retried once after 10 ms, a renderer that never answered swapped once for
 * another, a refused one told to the renderer choice, the same error answers (upstream-errors.ts),
 * and an upstream request that ends when its visitor leaves.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { remembered } from '@tern/shared/process/remembered';
import { forwardedHeaders } from './forwarded.js';
import { withoutHopByHop } from './hop-by-hop.js';
import { routeUpstream } from './proxy.js';
import { anotherRenderer } from './renderer-choice.js';
import type { RendererStartup } from './renderer-startup.js';
import type { Step } from './step.js';
import { classifyTransportError } from './transport-errors.js';
import { onUpstreamError } from './upstream-errors.js';

export interface PageProxyOptions {
  /** The pool every renderer request goes through (the route's too: one set of connections). */
  dispatcher: Dispatcher;
  /** The renderer for a request URL (renderer-choice.ts). */
  choose: (url: string) => string;
  /** Told when the renderer chosen for a request refused the connection. */
  refused?: (url: string) => void;
  /** Told of every renderer answer; until the first, a refused renderer is one still starting. */
  startup?: RendererStartup;
  /** To the renderer's headers, and between two chunks of its body. */
  timeoutMs: number;
  /** Requests under it are for assets: their Accept-Encoding goes upstream (forwarded.ts). */
  assetsPrefix: string;
}

/** A GET or HEAD that announces no body: nothing to read before asking upstream. */
function bodiless(request: FastifyRequest): boolean {
  const { method, headers } = request;
  if (method !== 'GET' && method !== 'HEAD') return false;
  return headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
}

/** The Host an upstream is asked with (reply-from's rule): its own, parsed once per origin. */
const hostOf = remembered((origin) => new URL(origin).host, { maxEntries: 64, maxKeyLength: 256 });

/** How far one page's upstream request got: which renderer, which retries are spent. */
interface Attempt {
  target: string;
  resetRetried: boolean;
  otherTried: boolean;
}

export function pageProxyStep(options: PageProxyOptions): Step {
  const replyWithUpstreamError = onUpstreamError('renderer', options.startup);

  function send(request: FastifyRequest, reply: FastifyReply, attempt: Attempt): void {
    const headers = forwardedHeaders(request, request.headers, request.url.startsWith(options.assetsPrefix));
    headers.host = hostOf(attempt.target);
    const handler = new RendererAnswer(reply, options.startup, (error) => failed(request, reply, attempt, error));
    options.dispatcher.dispatch(
      {
        origin: attempt.target,
        path: request.url,
        method: request.method as Dispatcher.HttpMethod,
        headers: headers as Record<string, string | string[]>,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      },
      handler,
    );
  }

  /** No answer came: retry where the route did, else the one error answer. */
  function failed(request: FastifyRequest, reply: FastifyReply, attempt: Attempt, error: Error): void {
    // Its visitor left and the upstream request was ended for it: nobody to answer.
    if (reply.raw.destroyed || reply.sent) return;
    const transport = classifyTransportError(error);
    if (transport.unsent) options.refused?.(attempt.target);
    // A pooled socket the renderer had closed: the same renderer once more, after a breath.
    if (transport.reason === 'reset' && !attempt.resetRetried) {
      setTimeout(() => send(request, reply, { ...attempt, resetRetried: true }), 10);
      return;
    }
    // A renderer that died (one of several replicas) costs no visitor an error.
    const next = transport.retryable && !attempt.otherTried ? anotherRenderer(options.choose, request.url, attempt.target) : undefined;
    if (next) {
      send(request, reply, { target: next, resetRetried: attempt.resetRetried, otherTried: true });
      return;
    }
    replyWithUpstreamError(reply, error);
  }

  return (request, reply) => {
    // Only the renderer's route's requests (proxy.ts): the image and icons services keep theirs.
    if (!bodiless(request) || routeUpstream(request) !== 'renderer') return false;
    // Answered on its own time: the reply is sent (or its error) once the renderer answers.
    send(request, reply, { target: options.choose(request.url), resetRetried: false, otherTried: false });
    return true;
  };
}

/**
 * An answer the renderer sent whole (a Content-Length, docs/decisions/renderer-ssr.md) up to this
 * size is gathered and sent in one write: its bytes were all written at once upstream, so a stream
 * would hurry nothing, at the price of a Readable, a pipe and a socket write per chunk (0.85 →
 * 0.73 ms of the gateway's CPU for a proxied page; docs/decisions/performance.md, stop 44).
 */
export const WHOLE_ANSWER_MAX_BYTES = 512 * 1024;

/** A GET's answer with a body of a declared length to gather whole; anything else streams. */
function isWholeAnswer(method: string, statusCode: number, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET' || statusCode === 204 || statusCode === 304 || statusCode < 200) return false;
  const declared = headers['content-length'];
  if (typeof declared !== 'string' || !/^\d{1,7}$/.test(declared)) return false;
  const length = Number(declared);
  return length > 0 && length <= WHOLE_ANSWER_MAX_BYTES;
}

/**
 * One upstream request's answer, on undici's handler interface: the status and headers go on the
 * reply, and the body either whole (above) or into a stream Fastify sends, paced by the visitor
 * (undici pauses the upstream socket while the stream is full). A visitor who leaves ends the
 * upstream request.
 */
class RendererAnswer implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private body: Readable | null = null;
  /** The chunks of an answer gathered whole, and how many bytes they hold. */
  private chunks: Buffer[] | null = null;
  private gathered = 0;
  private wholeHeaders: IncomingHttpHeaders = {};
  private ended = false;
  private readonly visitorLeft = () => {
    if (!this.reply.raw.writableFinished) this.controller?.abort(new VisitorLeftError());
  };

  constructor(
    private readonly reply: FastifyReply,
    private readonly startup: RendererStartup | undefined,
    private readonly noAnswer: (error: Error) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.reply.raw.destroyed) controller.abort(new VisitorLeftError());
    else this.reply.raw.once('close', this.visitorLeft);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.startup?.answered();
    const reply = this.reply;
    try {
      reply.code(statusCode);
    } catch (error) {
      // Not a status Node can send (reply-from's 502 for it too).
      controller.abort(new InvalidStatusError(statusCode, error));
      return;
    }
    // Upstream connection headers describe the gateway's pooled socket, not the visitor's.
    const answerHeaders = withoutHopByHop(headers);
    if (isWholeAnswer(reply.request.method, statusCode, headers)) {
      // Set once it is all in: an answer that breaks off before then fails as one never sent.
      this.chunks = [];
      this.wholeHeaders = answerHeaders;
      return;
    }
    reply.headers(answerHeaders);
    this.body = new Readable({
      read: () => controller.resume(),
      destroy: (error, done) => {
        // The visitor left or the answer broke: the renderer stops working on it.
        if (!this.ended) controller.abort(error ?? new VisitorLeftError());
        done(error);
      },
    });
    reply.send(this.body);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks) {
      this.chunks.push(chunk);
      this.gathered += chunk.length;
    } else if (!this.body!.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.reply.raw.off('close', this.visitorLeft);
    if (this.chunks)
      this.reply.headers(this.wholeHeaders).send(this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.gathered));
    else this.body?.push(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.ended = true;
    this.reply.raw.off('close', this.visitorLeft);
    // Mid-body: the answer can only break off (Fastify ends the visitor's connection).
    if (this.body) this.body.destroy(error);
    else if (!(error instanceof VisitorLeftError)) this.noAnswer(error);
  }
}

class VisitorLeftError extends Error {
  override name = 'AbortError';
  readonly code = 'UND_ERR_ABORTED';
  constructor() {
    super('the visitor left before the answer');
  }
}

class InvalidStatusError extends Error {
  constructor(status: number, cause: unknown) {
    super(`the upstream answered an invalid status ${status}`, { cause });
  }
}
