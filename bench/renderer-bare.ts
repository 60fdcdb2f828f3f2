/**
 * The limit for bench/renderer.ts: the same category page's React tree and document, rendered
 * with `renderToString` from data loaded once, on a bare node:http server (no routing, loaders,
 * streaming or Fastify). Runs in a process of its own (argv: the path; it prints `listening {url}`),
 * so its CPU time is its own; as a worker thread of the benchmark when one starts it so.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { renderToString } from 'react-dom/server';
import { buildDir } from '@tern/shared/config/paths';
import { DOCUMENT_END, documentStart } from '@tern/renderer/document';
import { linksFor, readViteManifest } from '@tern/renderer/manifest-links';
import { loadSsrEntry, startSiteServer } from '@tern/runtime/server/ssr-entry';
import { createLogger } from '@tern/shared/logging/logger';

async function startBare(path: string): Promise<string> {
  const entry = await loadSsrEntry(join(buildDir, 'ssr', 'entry-server.js'));
  // The site's services as the renderer starts them (the data loaded once), without its routes.
  const site = await startSiteServer(entry, { logger: createLogger({ service: 'bench', level: 'warn' }), env: process.env, dev: false });
  const manifest = await readViteManifest(join(buildDir, 'client'));
  const query = await entry.queryPage(new Request(`http://127.0.0.1${path}`), site?.services);
  if (query instanceof Response || query.errors) throw new Error(`bare baseline: ${path} did not render`);
  const nonce = 'bench-nonce';
  const start = documentStart({
    nonce,
    htmlClass: '',
    forcedColorMode: null,
    head: query.head('http://127.0.0.1'),
    links: linksFor(manifest, entry.clientEntry, query.files, '/_nuxt/'),
  });
  const server = createServer((_request, response) => {
    const html = start + renderToString(query.element({ nonce, errors: null })) + DOCUMENT_END;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('bare baseline: no port');
  return `http://127.0.0.1:${address.port}`;
}

if (parentPort) {
  startBare((workerData as { path: string }).path).then(
    (url) => parentPort!.postMessage({ url }),
    (error: unknown) => parentPort!.postMessage({ error: String(error) }),
  );
} else if (process.argv[2]) {
  startBare(process.argv[2]).then(
    (url) => process.stdout.write(`listening ${url}\n`),
    (error: unknown) => {
      process.stderr.write(`bare baseline failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
  process.once('SIGTERM', () => process.exit(0));
}
