/**
 * Finds a base port with the three after it free too, as the stack needs four in a row, and the
 * four metrics ports 1000 above them (METRICS_PORT defaults to PORT + 1000).
 */
import { createServer } from 'node:net';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function findFreeBasePort(count = 4): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below Linux's ephemeral range (32768-60999): a port the check found free can otherwise be
    // taken by any outgoing connection before the service listens on it.
    const base = 10_000 + Math.floor(Math.random() * 21_000);
    const ports = Array.from({ length: count }, (_, i) => [base + i, base + 1000 + i]).flat();
    const checks = await Promise.all(ports.map(isFree));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no four consecutive free ports found');
}
