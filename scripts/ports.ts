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
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const ports = Array.from({ length: count }, (_, i) => [base + i, base + 1000 + i]).flat();
    const checks = await Promise.all(ports.map(isFree));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no four consecutive free ports found');
}
