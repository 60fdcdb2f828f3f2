/**
 * A page's document from React 19. A page that renders in one pass is sent whole, in one buffer
 * (whole-page.ts). Otherwise it streams: people get the document from the shell on; crawlers get
 * it once all is ready (complete HTML). A render that outlives SSR_STREAM_TIMEOUT_MS is aborted
 * (the browser finishes it); a shell that fails becomes the 500 page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { DocumentStream } from './document-stream.js';
import { bootstrapScriptTag, type WholePageRenderer } from './whole-page.js';

export interface StreamOptions {
  element: ReactElement;
  start: string;
  end: string;
  nonce: string;
  /** How the browser entry starts: a module script (as soon as it is in) or an inline script. */
  bootstrap: { module: string } | { script: string };
  /** Wait for everything (crawlers) instead of streaming from the shell. */
  waitForAll: boolean;
  timeoutMs: number;
  statusCode: number;
  headers: Record<string, string>;
  /** Answers when the shell could not render. */
  onShellError: (error: unknown) => void;
  /** Renders pages whole where they can be, and `page` (its page modules) to know this one by; none: it streams. */
  whole?: { renderer: WholePageRenderer; page: string } | undefined;
}

/** Resolves once the answer has started (or the shell error was answered). */
export function streamPage(request: FastifyRequest, reply: FastifyReply, options: StreamOptions): Promise<void> {
  if (sentWhole(reply, options)) return Promise.resolve();
  return streamed(request, reply, options);
}

/**
 * Only with the inline bootstrap (a build's pages): a module bootstrap (the dev server's) is
 * React's to write, with its preload links in the shell.
 */
function sentWhole(reply: FastifyReply, options: StreamOptions): boolean {
  if (!options.whole || !('script' in options.bootstrap)) return false;
  const html = options.whole.renderer.render(options.element, options.whole.page);
  if (html === null) return false;
  const bootstrap = bootstrapScriptTag(options.nonce, options.bootstrap.script);
  // As bytes: a string would be measured for its length and then encoded, two passes over the page.
  reply
    .code(options.statusCode)
    .headers(options.headers)
    .type('text/html; charset=utf-8')
    .send(Buffer.from(options.start + html + bootstrap + options.end));
  return true;
}

function streamed(request: FastifyRequest, reply: FastifyReply, options: StreamOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = new DocumentStream(options.start, options.end);
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      reply.code(options.statusCode).headers(options.headers).type('text/html; charset=utf-8');
      stream.pipe(body.destination);
      reply.send(body);
      resolve();
    };
    const stream = renderToPipeableStream(options.element, {
      nonce: options.nonce,
      // A Suspense boundary that is complete when it is written goes in its place. React would move
      // one that ends past 12.8 KB of the document behind a script (hidden until the script runs):
      // the page must read without JavaScript, and an in-place boundary is what lets a long page
      // hydrate its later parts on their own (components/ui/hydrate-when-visible.tsx).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      ...('module' in options.bootstrap
        ? { bootstrapModules: [options.bootstrap.module] }
        : { bootstrapScriptContent: options.bootstrap.script }),
      onShellReady: () => {
        if (!options.waitForAll) send();
      },
      onAllReady: send,
      onShellError: (error) => {
        clearTimeout(timer);
        if (sent) return;
        sent = true;
        try {
          options.onShellError(error);
          resolve();
        } catch (failure) {
          reject(failure);
        }
      },
      onError: (error) => {
        request.log.error({ err: error }, 'render error');
      },
    });
    const timer = setTimeout(() => {
      request.log.warn({ timeoutMs: options.timeoutMs }, 'render timed out; aborting the rest to the browser');
      stream.abort(new Error(`render timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    timer.unref();
    body.once('end', () => clearTimeout(timer));
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) stream.abort(new Error('client went away'));
    });
  });
}
