/**
 * Where the services' JSON lines go: stdout, the lines of one event-loop turn gathered into one
 * write. A synchronous write per line cost a cached hit a system call and, behind a pipe, woke
 * the reader (the launcher, a log collector) once per request; under load one turn answers
 * several requests, and an idle service still writes its line before the next turn, so a line is
 * never held back. Whatever is gathered is written when the process exits, crashes included.
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

/** Gathers lines and hands them to `write` after this turn, in writes of whole lines of at most PIPE_BUF bytes. */
export function batched(write: (text: string) => unknown): BatchedDestination {
  let pending: string[] = [];
  let scheduled = false;
  const flushSync = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    // At most PIPE_BUF bytes a write, cut at line ends: the services share the launcher's stdout
    // (scripts/services.ts), and only writes that small are never interleaved with another's.
    let batch = '';
    let bytes = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line);
      if (bytes > 0 && bytes + size > PIPE_BUF) {
        write(batch);
        batch = '';
        bytes = 0;
      }
      batch += line;
      bytes += size;
    }
    write(batch);
  };
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushSync);
      }
    },
    flushSync,
  };
}
