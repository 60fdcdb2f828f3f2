/**
 * `npm run bench:cache`: the render cache on the category page, in interleaved rounds.
 *   1. the cached page through the gateway against a bare node:http server answering the same
 *      bytes from memory (the limit), without and with `accept-encoding: br, gzip` (goal >= 0.6x);
 *   2. the miss path (a new query string per request, every one rendered and stored) against the
 *      gateway with the cache off (goal >= 0.95x);
 *   3. Next.js 16 ISR of the same page, when it installs here (goal >= 4x).
 * BENCH_SECONDS and BENCH_ROUNDS shorten or lengthen it; BENCH_NEXT=0 skips Next.js; BENCH_REDIS=1
 * puts both stacks on Redis (the shared store of a cluster) instead of the embedded files.
 */
import { createServer, type Server } from 'node:http';
import { startLocalStack } from '../scripts/local-stack.js';
import { printTable, ratio } from './support/load.js';
import { interleaved, type Target } from './support/rounds.js';
import { startNextApp, type NextApp } from './renderer-next.js';

const PAGE = '/category/git';
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

async function bytesOf(url: string, encoding: string): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const response = await fetch(url, { headers: { 'user-agent': PERSON, 'accept-encoding': encoding }, decompress: false } as RequestInit);
  return { body: Buffer.from(await response.arrayBuffer()), headers: Object.fromEntries(response.headers) };
}

/** The limit: node:http answering the cached bytes (pre-compressed too) from memory. */
async function bareServer(identity: Buffer, br: Buffer, contentType: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const wantsBr = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(200, {
      'content-type': contentType,
      'content-length': (wantsBr ? br : identity).length,
      ...(wantsBr ? { 'content-encoding': 'br', vary: 'accept-encoding' } : {}),
    });
    response.end(wantsBr ? br : identity);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}

const redis = process.env.BENCH_REDIS === '1';
const cached = await startLocalStack({ redis, env: { LOG_LEVEL: 'warn', CACHE_MAX_VARIANTS: '100000000' } });
const uncached = await startLocalStack({ redis, env: { LOG_LEVEL: 'warn', RENDER_CACHE: 'false' } });
let next: NextApp | null = null;
try {
  await fetch(`${cached.url}${PAGE}`, { headers: { 'user-agent': PERSON } });
  const identity = await bytesOf(`${cached.url}${PAGE}`, 'identity');
  const br = await bytesOf(`${cached.url}${PAGE}`, 'br');
  if (identity.headers['x-cache'] !== 'HIT' || br.headers['content-encoding'] !== 'br') throw new Error('the page is not cached');
  const bare = await bareServer(identity.body, br.body, identity.headers['content-type']!);
  let n = 0;
  const unique = () => `${PAGE}?v=${n++}`;
  const headers = { 'user-agent': PERSON };
  const compressed = { ...headers, 'accept-encoding': 'br, gzip' };

  const targets: Target[] = [
    { label: 'gateway, cached', url: `${cached.url}${PAGE}`, headers },
    { label: 'bare node:http', url: `${bare.url}${PAGE}`, headers },
    { label: 'gateway, cached, br', url: `${cached.url}${PAGE}`, headers: compressed },
    { label: 'bare node:http, br', url: `${bare.url}${PAGE}`, headers: compressed },
    { label: 'gateway, miss (stored)', url: `${cached.url}${PAGE}`, headers: compressed, nextPath: unique },
    { label: 'gateway, cache off', url: `${uncached.url}${PAGE}`, headers: compressed, nextPath: unique },
  ];
  if (process.env.BENCH_NEXT !== '0') {
    try {
      next = await startNextApp();
      await fetch(`${next.url}/isr-category/git`);
      targets.push({ label: `Next.js ${next.version} ISR, br`, url: `${next.url}/isr-category/git`, headers: compressed });
    } catch (error) {
      console.log(`Next.js skipped: ${(error as Error).message}`);
    }
  }
  const result = await interleaved(targets, { rounds, seconds });
  printTable(result.results);
  ratio('cached / bare, identity', result.ratio(0, 1), 1, { atLeast: 0.6 });
  ratio('cached / bare, br', result.ratio(2, 3), 1, { atLeast: 0.6 });
  ratio('miss / cache off', result.ratio(4, 5), 1, { atLeast: 0.95 });
  if (targets.length > 6) ratio('cached, br / Next.js ISR, br', result.ratio(2, 6), 1, { atLeast: 4 });
  bare.server.close();
} finally {
  next?.stop();
  await cached.stop();
  await uncached.stop();
}
