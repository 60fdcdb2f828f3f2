/**
 * Request bodies are read whole at the gateway before an upstream connection is taken (nginx's
 * `proxy_request_buffering on`), within the body limit and a floor rate (Apache's mod_reqtimeout
 * `MinRate`): a body gets `graceMs`, and every byte received buys 1/`minBytesPerSecond` s more. A
 * slow upload then holds one of the gateway's sockets, never one of the 128 connections to the
 * renderer, and is cut with 408 once it falls below the floor. docs/decisions/http-edge.md.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createError, type HttpError } from '@tern/shared/errors/errors';
import { LIB_ERRORS } from '@tern/shared/errors/error-codes';
import { closeAfter } from '@tern/shared/http/request-guards';
import { sendError } from '@tern/shared/http/service';

export interface BodyPace {
  /** Bytes a body may hold (the gateway's body limit). */
  limitBytes: number;
  /** Time every body has before the floor rate counts. */
  graceMs: number;
  /** The floor: each byte received extends the body's time by 1/minBytesPerSecond seconds. */
  minBytesPerSecond: number;
}

/** Resolves with the whole body; rejects with the answer's error: 408 too slow, 413 too large, 400 broken. */
export function readWholeBody(body: IncomingMessage, pace: BodyPace): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const started = Date.now();
    const deadline = () => started + pace.graceMs + (received * 1000) / pace.minBytesPerSecond;
    let timer: NodeJS.Timeout;
    const stop = (error: HttpError | null) => {
      clearTimeout(timer);
      body.off('data', onData).off('end', onEnd).off('error', onBroken).off('aborted', onBroken).off('close', onClose);
      if (!error) return resolve(Buffer.concat(chunks, received));
      // What still comes is read and dropped (the answer's lingering close ends it).
      body.resume();
      reject(error);
    };
    // One timer, moved on only when it fires: a chunk costs no timer work.
    const check = () => {
      const left = deadline() - Date.now();
      if (left <= 0) stop(createError(LIB_ERRORS.LIB_REQUEST_TIMEOUT()));
      else timer = setTimeout(check, left);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > pace.limitBytes) stop(createError(LIB_ERRORS.LIB_BODY_TOO_LARGE(pace.limitBytes)));
      else chunks.push(chunk);
    };
    const onEnd = () => stop(null);
    const onBroken = () => stop(createError(LIB_ERRORS.LIB_REQUEST_INCOMPLETE()));
    const onClose = () => {
      if (!body.readableEnded) onBroken();
    };
    body.on('data', onData).on('end', onEnd).on('error', onBroken).on('aborted', onBroken).on('close', onClose);
    timer = setTimeout(check, pace.graceMs);
  });
}

/**
 * The proxies' preHandler: a request with a body (the proxy's content parser hands the stream on
 * as `request.body`) goes upstream only once it is whole, as one buffer with its exact length.
 */
export function wholeBodyFirst(pace: BodyPace): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return function readBodyFirst(request, reply, done) {
    const stream = request.body;
    if (!(stream instanceof Readable)) return done();
    readWholeBody(stream as IncomingMessage, pace).then(
      (whole) => {
        // reply-from streams a stream body with the request's own framing headers: now a length.
        request.raw.headers['content-length'] = String(whole.length);
        delete request.raw.headers['transfer-encoding'];
        request.body = Readable.from([whole], { objectMode: false });
        done();
      },
      (error: HttpError) => {
        // The body was not read to its end: the connection cannot carry another request.
        if (error.statusCode !== 400) closeAfter(reply);
        sendError(request, reply, error);
      },
    );
  };
}
