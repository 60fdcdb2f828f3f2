/**
 * The stream a page is sent through: the document start before React's first byte, the end after
 * its last. React writes many small pieces (4 kB views, long strings alone) and calls `flush()`
 * after each pass; the pieces of a pass go out as one buffer, so the socket and the chunked
 * encoding see one write per pass instead of one per piece. The push waits a microtask, so a
 * last pass followed at once by `end()` goes out with the document end in the same buffer.
 */
import { Transform, type TransformCallback } from 'node:stream';

type Piece = string | Uint8Array;

export class DocumentStream extends Transform {
  #head: string | null;
  readonly #tail: string;
  #pieces: Piece[] = [];
  #bytes = 0;
  #scheduled = false;

  constructor(head: string, tail: string) {
    // Strings stay strings until the one copy into the outgoing buffer.
    super({ decodeStrings: false });
    this.#head = head;
    this.#tail = tail;
  }

  override _transform(chunk: Piece, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#add(chunk);
    callback();
  }

  /** Called by React at the end of each flush pass. */
  flush(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (!this.destroyed && !this.writableEnded && (this.#head !== null || this.#pieces.length > 0)) this.push(this.#take());
    });
  }

  override _flush(callback: TransformCallback): void {
    this.#add(this.#tail);
    callback(null, this.#take());
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
