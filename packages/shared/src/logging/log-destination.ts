/**
 * Where the services' JSON lines go: stdout, gathered into writes of whole lines. A synchronous
 * write per line cost a cached hit a system call and, behind a pipe, woke the reader (the
 * launcher, a log collector) once per request; waking the reader is most of a pipe write's cost.
 * Lines are held until they fill a pipe's atomic write, or for HOLD_MS at most: an idle service's
 * line is out 10 ms later. Whatever is gathered is written when the process exits, crashes included.
 */
import { pino, type DestinationStream } from 'pino';

export interface BatchedDestination extends DestinationStream {
  /** Writes what is gathered now. */
  flushSync(): void;
}

/** Linux's atomic pipe write size. */
const PIPE_BUF = 4096;
const made = new Map<number, BatchedDestination>();

/** One per file descriptor and process: every logger writing to stdout shares its batches. */
export function batchedDestination(fd = 1): BatchedDestination {
  let destination = made.get(fd);
  if (!destination) made.set(fd, (destination = createBatched(fd)));
  return destination;
}

function createBatched(fd: number): BatchedDestination {
  // sonic-boom, synchronous: it retries a full pipe (EAGAIN) instead of dropping lines.
  const out = pino.destination({ dest: fd, sync: true });
  const destination = batched((text) => out.write(text));
  process.on('exit', destination.flushSync);
  return destination;
}

/** How long a line may wait for others to share its write. */
export const HOLD_MS = 10;

/**
 * Gathers lines and hands them to `write` in writes of whole lines of at most PIPE_BUF bytes: at
 * once when they fill one, else HOLD_MS after the first of them (docs/decisions/performance.md:
 * writing at the first quiet turn of the loop wrote every few requests where the load generator
 * and the service share two cores, a partly filled write each time the service caught up).
 */
export function batched(write: (text: string) => unknown): BatchedDestination {
  let pending: string[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Writes what is gathered; `whole` false keeps back the last, partly filled write. */
  const flush = (whole: boolean) => {
    const lines = pending;
    pending = [];
    pendingBytes = 0;
    // At most PIPE_BUF bytes a write, cut at line ends: the services share the launcher's stdout
    // (packages/cli/src/services.ts), and only writes that small are never interleaved with another's.
    let batch: string[] = [];
    let bytes = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line);
      if (bytes > 0 && bytes + size > PIPE_BUF) {
        write(batch.join(''));
        batch = [];
        bytes = 0;
      }
      batch.push(line);
      bytes += size;
    }
    // A line longer than a whole write goes now, alone.
    if (whole || bytes >= PIPE_BUF) {
      if (batch.length > 0) write(batch.join(''));
    } else {
      pending = batch;
      pendingBytes = bytes;
    }
  };
  const flushSync = () => {
    clearTimeout(timer);
    timer = undefined;
    flush(true);
  };
  return {
    write(line: string) {
      pending.push(line);
      // Characters, not bytes: only the moment of the write depends on it, never where a write is cut.
      pendingBytes += line.length;
      if (pendingBytes >= PIPE_BUF) flush(false);
      if (pending.length === 0) {
        clearTimeout(timer);
        timer = undefined;
      } else if (!timer) {
        // Unreferenced: the lines never keep a process alive, and one that exits writes them then.
        timer = setTimeout(flushSync, HOLD_MS).unref();
      }
    },
    flushSync,
  };
}
