/**
 * A TCP server that stands where a Redis should be, for a machine with no address but loopback, where
 * a real Redis cannot be put in protected mode for a client: it answers `-DENIED …` the moment a client
 * connects, then closes, as Redis does for a client from a non-loopback address. (Elsewhere the tests
 * use a real `redis-server --protected-mode yes` reached over the machine's own non-loopback address.)
 */
import { createServer, type Server, type Socket } from 'node:net';

/** Redis's own words (networking.c) when protected mode refuses a client, first sentence. */
export const PROTECTED_MODE_DENIED =
  '-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user. ' +
  'In this mode connections are only accepted from the loopback interface.\r\n';

export interface StandIn {
  url: string;
  port: number;
  /** Closes the server and every connection it holds, freeing the port. */
  close(): Promise<void>;
}

async function serve(onConnection: (socket: Socket) => void, port = 0): Promise<StandIn> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${bound}`,
    port: bound,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers every connection as Redis in protected mode does, then closes it. */
export function protectedModeRedis(): Promise<StandIn> {
  return serve((socket) => socket.end(PROTECTED_MODE_DENIED));
}
