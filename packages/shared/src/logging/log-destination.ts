/**
 * Where the services' JSON lines go: stdout, gathered into writes of whole lines. A synchronous
 * write per line cost a cached hit a system call and, behind a pipe, woke the reader (the
 * launcher, a log collector) once per request; waking the reader is most of a pipe write's cost.
 * Under load every event-loop turn answers requests, so lines are held while each turn brings new
 * ones, until they fill a pipe's atomic write; the first turn that brings none writes them. An
 * idle service writes its line one turn later, so a line is never held back. Whatever is gathered
 * is written when the process exits, crashes included.
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

/**
 * Gathers lines and hands them to `write` in writes of whole lines of at most PIPE_BUF bytes: when
 * they fill one, or at the first turn that brought no new line (measured in docs/decisions/performance.md).
 */
export function batched(write: (text: string) => unknown): BatchedDestination {
  let pending: string[] = [];
  let pendingBytes = 0;
  // Lines arrived since the last check: the loop is busy, and the next turn may bring more.
  let arrived = false;
  let scheduled = false;
  /** Writes what is gathered; under load (`whole` false) the last, partly filled write waits for more lines. */
  const flush = (whole: boolean) => {
    if (pending.length === 0) return;
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
    if (whole || bytes >= PIPE_BUF) write(batch.join(''));
    else {
      pending = batch;
      pendingBytes = bytes;
    }
  };
  const flushSync = () => flush(true);
  // A pending immediate keeps the loop from sleeping, so a quiet process reaches the next check at once.
  const check = () => {
    const busy = arrived;
    arrived = false;
    // A busy turn's lines wait for the next check unless they fill a write; a quiet turn writes all.
    if (!busy || pendingBytes >= PIPE_BUF) flush(!busy);
    if (pending.length > 0) setImmediate(check);
    else scheduled = false;
  };
  return {
    write(line: string) {
      pending.push(line);
      // Characters, not bytes: only the moment of the write depends on it, never where a write is cut.
      pendingBytes += line.length;
      arrived = true;
      if (!scheduled) {
        scheduled = true;
        setImmediate(check);
      }
    },
    flushSync,
  };
}
