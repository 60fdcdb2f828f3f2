/**
 * The stream a page is sent through: the document start before React's first byte, the end after
 * its last. React writes many small pieces (4 kB views, long strings alone) and calls `flush()`
 * after each pass; the pieces of a pass go out as one buffer, so the socket and the chunked
 * encoding see one write per pass instead of one per piece. The push waits a microtask, so a
 * last pass followed at once by `end()` goes out with the document end in the same buffer.
 *
 * React writes to it directly (`destination`): it is a Readable that takes React's calls (write,
 * flush, end), not a Transform, so each of React's pieces is an array push instead of a trip
 * through a Writable's state machine and a transform callback (docs/decisions/performance.md).
 */
import { Readable } from 'node:stream';

type Piece = string | Uint8Array;

export class DocumentStream extends Readable {
  #head: string | null;
  readonly #tail: string;
  #pieces: Piece[] = [];
  #bytes = 0;
  #scheduled = false;
  #ended = false;

  constructor(head: string, tail: string) {
    super();
    this.#head = head;
    this.#tail = tail;
  }

  /**
   * The stream as React's `pipe` takes it. React only calls write, flush, end, destroy and on
   * ('drain', 'error', 'close'); 'drain' never comes because write always has room: a page is
   * held for one pass at most, which the Transform before it held too.
   */
  get destination(): NodeJS.WritableStream {
    return this as unknown as NodeJS.WritableStream;
  }

  /** Whether the document end was written (React ended its output). */
  get writableEnded(): boolean {
    return this.#ended;
  }

  override _read(): void {
    // Nothing to pull: each flush pass pushes what it gathered.
  }

  /** A piece of React's output, kept until the pass ends. */
  write(piece: Piece): boolean {
    if (!this.#ended) this.#add(piece);
    return true;
  }

  /** Called by React at the end of each flush pass. */
  flush(): void {
    if (this.#scheduled || this.#ended) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (!this.destroyed && !this.#ended && (this.#head !== null || this.#pieces.length > 0)) this.push(this.#take());
    });
  }

  /** React's output is complete: what is left of the last pass and the document end, as one buffer. */
  end(): this {
    if (this.#ended) return this;
    this.#ended = true;
    this.#add(this.#tail);
    if (!this.destroyed) {
      this.push(this.#take());
      this.push(null);
    }
    return this;
  }

  #add(piece: Piece): void {
    if (this.#head !== null) {
      const head = this.#head;
      this.#head = null;
      this.#add(head);
    }
    this.#pieces.push(piece);
    this.#bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength;
  }

  /** The pieces so far as one buffer (the head first if it has not gone out yet). */
  #take(): Buffer {
    if (this.#head !== null) this.#add('');
    const out = Buffer.allocUnsafe(this.#bytes);
    let offset = 0;
    for (const piece of this.#pieces) {
      if (typeof piece === 'string') offset += out.write(piece, offset);
      else {
        out.set(piece, offset);
        offset += piece.byteLength;
      }
    }
    this.#pieces = [];
    this.#bytes = 0;
    return out;
  }
}
