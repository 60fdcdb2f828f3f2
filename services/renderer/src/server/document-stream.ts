/** The stream a page is sent through: the document start before React's first byte, the end after its last. */
import { Transform, type TransformCallback } from 'node:stream';

export class DocumentStream extends Transform {
  #started = false;
  readonly #head: string;
  readonly #tail: string;

  constructor(head: string, tail: string) {
    super();
    this.#head = head;
    this.#tail = tail;
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.#started) {
      this.#started = true;
      this.push(this.#head);
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#started) this.push(this.#head);
    callback(null, this.#tail);
  }
}
