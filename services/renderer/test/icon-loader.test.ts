import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ICON_FETCH_TIMEOUT_MS } from '../src/runtime/client/icons-loader.js';
import { createIconLoader } from '../src/runtime/client/icons-loader.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server whose answer each test chooses; it records every request path. */
async function startServer(): Promise<{ url: string; requests: string[]; handle: (h: Handler) => void; server: Server }> {
  const requests: string[] = [];
  let handler: Handler = (_req, res) => res.writeHead(500).end();
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, handle: (h) => (handler = h), server };
}

const ICON = '<path d="M0 0h24v24H0z"/>';
function answerSet(res: ServerResponse, prefix: string, names: string[]): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ prefix, width: 24, height: 24, icons: Object.fromEntries(names.map((n) => [n, { body: ICON }])) }));
}
function namesOf(url: string): string[] {
  return new URL(url, 'http://x').searchParams.get('icons')?.split(',') ?? [];
}
function collectionOf(url: string): string {
  return new URL(url, 'http://x').pathname.split('/').pop()?.replace('.json', '') ?? '';
}

let local: Awaited<ReturnType<typeof startServer>>;
let iconify: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  local = await startServer();
  iconify = await startServer();
});
afterEach(() => {
  local.requests.length = 0;
  iconify.requests.length = 0;
});
afterAll(() => {
  local.server.closeAllConnections();
  iconify.server.closeAllConnections();
  local.server.close();
  iconify.server.close();
});

function loader(warnings: string[] = []) {
  return createIconLoader({ localEndpoint: `${local.url}/api/_nuxt_icon`, iconifyApi: iconify.url, warn: (m) => warnings.push(m) });
}

describe('icon loader', () => {
  it('batches names asked for together into one request per collection', async () => {
    local.handle((req, res) => answerSet(res, collectionOf(req.url ?? ''), namesOf(req.url ?? '')));
    const l = loader();
    const icons = await Promise.all(['lucide:x', 'mdi:home', 'lucide:sun', 'lucide:x', 'mdi:account'].map((n) => l.load(n)));
    expect(icons.every((icon) => icon?.body === ICON)).toBe(true);
    expect(local.requests.sort()).toEqual(['/api/_nuxt_icon/lucide.json?icons=sun,x', '/api/_nuxt_icon/mdi.json?icons=account,home']);
    expect(iconify.requests).toEqual([]);
    // Known now: no second request.
    await l.load('lucide:sun');
    expect(local.requests).toHaveLength(2);
    expect(l.peek('lucide:sun')?.viewBox).toBe('0 0 24 24');
  });

  it('falls back to the public API when the local service fails', async () => {
    local.handle((_req, res) => res.writeHead(503).end());
    iconify.handle((req, res) => answerSet(res, 'tabler', namesOf(req.url ?? '')));
    const icon = await loader().load('tabler:home');
    expect(icon?.body).toBe(ICON);
    expect(local.requests).toEqual(['/api/_nuxt_icon/tabler.json?icons=home']);
    expect(iconify.requests).toEqual(['/tabler.json?icons=home']);
  });

  it(`gives up on the local service after ${ICON_FETCH_TIMEOUT_MS} ms and asks the public API`, async () => {
    local.handle((req, res) => setTimeout(() => answerSet(res, 'lucide', namesOf(req.url ?? '')), ICON_FETCH_TIMEOUT_MS + 500));
    iconify.handle((req, res) => answerSet(res, 'lucide', namesOf(req.url ?? '')));
    const started = Date.now();
    const icon = await loader().load('lucide:moon');
    const elapsed = Date.now() - started;
    expect(icon?.body).toBe(ICON);
    expect(elapsed).toBeGreaterThanOrEqual(ICON_FETCH_TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(ICON_FETCH_TIMEOUT_MS + 400);
    expect(iconify.requests).toHaveLength(1);
  });

  it('does not ask the public API when the local answer is good but lacks a name; logs a missing icon once', async () => {
    local.handle((req, res) =>
      answerSet(
        res,
        'lucide',
        namesOf(req.url ?? '').filter((n) => n !== 'nope'),
      ),
    );
    const warnings: string[] = [];
    const l = loader(warnings);
    const [found, missing] = await Promise.all([l.load('lucide:x'), l.load('lucide:nope')]);
    await l.load('lucide:nope');
    expect(found).not.toBeNull();
    expect(missing).toBeNull();
    expect(l.peek('lucide:nope')).toBeNull();
    expect(iconify.requests).toEqual([]);
    expect(warnings).toEqual(['[icon] "lucide:nope" could not be loaded; its box is kept empty']);
  });

  it('treats a set for another prefix, a bad body, or both services down as missing', async () => {
    local.handle((_req, res) => answerSet(res, 'other', ['x']));
    iconify.handle((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('404'));
    const warnings: string[] = [];
    expect(await loader(warnings).load('lucide:x')).toBeNull();
    expect(iconify.requests).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });

  it('never sends malformed names', async () => {
    const warnings: string[] = [];
    const l = loader(warnings);
    expect(await l.load('no-colon')).toBeNull();
    expect(await l.load('Bad:Name')).toBeNull();
    expect(local.requests).toEqual([]);
    expect(warnings).toHaveLength(2);
  });

  it('notifies subscribers when an icon settles', async () => {
    local.handle((req, res) => answerSet(res, 'lucide', namesOf(req.url ?? '')));
    const l = loader();
    let calls = 0;
    const stop = l.subscribe(() => calls++);
    await l.load('lucide:copy');
    stop();
    await l.load('lucide:check');
    expect(calls).toBe(1);
  });
});
