/** Finds a base port with the three after it free too, as the stack needs four in a row. */
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
    const checks = await Promise.all(Array.from({ length: count }, (_, i) => isFree(base + i)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no four consecutive free ports found');
}
