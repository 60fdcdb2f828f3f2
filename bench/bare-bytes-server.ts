/**
 * The limit of bench/render-cache.ts, in a process of its own: node:http answering the cached
 * page's bytes from memory with a Content-Length, brotli when the client accepts it. Its own
 * process, so the load generator never starves it. Usage: node bare-bytes-server.js <identity
 * file> <br file> <content-type>; prints `listening <port>` once ready.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [identityFile, brFile, contentType] = process.argv.slice(2);
if (!identityFile || !brFile || !contentType) throw new Error('usage: bare-bytes-server <identity file> <br file> <content-type>');
const identity = readFileSync(identityFile);
const br = readFileSync(brFile);

const server = createServer((request, response) => {
  const wantsBr = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
  response.writeHead(200, {
    'content-type': contentType,
    'content-length': (wantsBr ? br : identity).length,
    ...(wantsBr ? { 'content-encoding': 'br', vary: 'accept-encoding' } : {}),
  });
  response.end(wantsBr ? br : identity);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
