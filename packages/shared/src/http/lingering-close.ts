/**
 * A lingering close (RFC 9112 §9.6; nginx's `lingering_close`) for answers given before the
 * request's body was read (413, 415, 417): the answer goes out with a FIN after it, and the server
 * goes on reading and dropping what the client still sends until the client closes too or
 * LINGER_MS pass. Closing at once, with the body's bytes unread, makes the kernel answer them with
 * a reset; a client still uploading (a browser posting a file too large) then fails its write and
 * loses the answer it was about to read.
 */
import type { Socket } from 'node:net';

/** nginx lingers 30 s; a refused body here is at most a few MB on a fast link. */
export const LINGER_MS = 2000;

type ClosableSocket = Socket & { destroySoon?: () => void };

const lingering = new WeakSet<Socket>();

/** The socket was told to close and is only draining: nothing more may be served on it. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Makes the close that follows this socket's `Connection: close` answer a lingering one. Node's
 * HTTP server ends such an answer with `socket.destroySoon()` (end, then destroy once written),
 * its one hook for this; the request's unread body keeps flowing into the parser, which drops it.
 */
export function lingerOnClose(socket: Socket, ms = LINGER_MS): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  (socket as ClosableSocket).destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}
