/**
 * Bounded concurrency for transforms: at most `concurrency` run, at most `queueSize` wait, and
 * beyond that the caller gets 503 with Retry-After. A job over its time limit answers 503 at once,
 * but keeps its slot until sharp really stops, so the bound on CPU holds. A job whose signal
 * aborts while it waits leaves the line and never runs (nobody would read its answer).
 */
import { createError } from '@tern/shared/errors/errors';
import { abandoned } from './abandoned.js';
import { IMAGE_ERRORS } from './error-codes.js';

export interface JobQueueOptions {
  concurrency: number;
  queueSize: number;
  timeoutMs: number;
  retryAfterSeconds: number;
}

/** A waiting job: `start` hands it a slot. */
interface Waiter {
  start(): void;
}

export class JobQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Jobs turned away with 503 because the queue was full (a counter for metrics). */
  private rejections = 0;
  /** Jobs that left the line before they started, their askers gone (a counter for metrics). */
  private dropped = 0;

  constructor(private readonly options: JobQueueOptions) {}

  get stats(): { running: number; waiting: number; rejected: number; dropped: number } {
    return { running: this.running, waiting: this.waiting.length, rejected: this.rejections, dropped: this.dropped };
  }

  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw abandoned();
    if (this.running >= this.options.concurrency) {
      if (this.waiting.length >= this.options.queueSize) throw this.busy();
      await this.wait(signal);
    } else {
      this.running++;
    }
    const work = job().finally(() => this.release());
    return this.withTimeout(work);
  }

  /** Resolves when a slot passes to this job; rejects (and leaves the line) when its signal aborts first. */
  private wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        this.dropped++;
        reject(abandoned());
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next job, so `running` never dips below the bound under load.
    if (next) next.start();
    else this.running--;
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(createError({ ...IMAGE_ERRORS.IMAGE_TRANSFORM_TIMEOUT(), ...this.retryAfter() })),
        this.options.timeoutMs,
      );
    });
    work.catch(() => undefined);
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  private busy() {
    this.rejections++;
    return createError({ ...IMAGE_ERRORS.IMAGE_BUSY(), ...this.retryAfter() });
  }

  /** The header, and the body's `data.retryAfter` kept for clients that read it (test/queue.test.ts). */
  private retryAfter() {
    const seconds = this.options.retryAfterSeconds;
    return { retryAfterS: seconds, data: { retryAfter: seconds } };
  }
}
