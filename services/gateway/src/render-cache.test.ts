/**
 * The render cache against a small real renderer that counts its renders and can be told to
 * answer with a cookie, an error, `private`, or slowly: what is stored, what never is, stale
 * answers with one refresh, one render for concurrent misses, variants, queries, 304 and encodings.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RouteRulesInput } from '@tern/shared/route-rules/route-rules';
import { waitFor } from '../../../tests/support/wait-for.js';
import { metaOf, startGateway, type TestGateway } from './test-support/upstreams.js';

interface Renderer {
  url: string;
  app: FastifyInstance;
  renders: Map<string, number>;
  mode: { setCookie: boolean; status: number; cacheControl: string; delayMs: number; version: string; buildId: string };
  /** While set, renders wait for it: a refresh the test lets land when it chooses. */
  hold: { until: Promise<void> | null };
}

const NONCE = 'bm9uY2Utb2YtdGhlLXJlbmRlcg==';
/** How the stand-in renderer answers at start, and again before each test. */
const FIRST_MODE: Renderer['mode'] = {
  setCookie: false,
  status: 200,
  cacheControl: 'no-cache',
  delayMs: 0,
  version: 'v1',
  buildId: 'build-one',
};

async function startRenderer(): Promise<Renderer> {
  const app = Fastify();
  const renders = new Map<string, number>();
  const hold: Renderer['hold'] = { until: null };
  const mode: Renderer['mode'] = { ...FIRST_MODE };
  app.get('/*', async (request, reply) => {
    renders.set(request.url, (renders.get(request.url) ?? 0) + 1);
    if (mode.delayMs) await new Promise((resolve) => setTimeout(resolve, mode.delayMs));
    if (hold.until) await hold.until;
    if (mode.setCookie) reply.header('set-cookie', 'visitor=1; Path=/');
    const html =
      `<!DOCTYPE html><html class="${/color-mode=(\w+)/.exec(request.headers.cookie ?? '')?.[1] ?? ''}"><head>` +
      `<script nonce="${NONCE}">document.documentElement.dataset.js = "1"</script>` +
      `<script type="application/json" nonce="${NONCE}">{"v":1}</script></head>` +
      `<body>${mode.version} ${request.url} cookie=${request.headers.cookie ?? ''} host=${String(request.headers['x-forwarded-host'])} ${'<p>recipe</p>'.repeat(200)}</body></html>`;
    return reply
      .code(mode.status)
      .header('content-security-policy', `script-src 'nonce-${NONCE}' 'strict-dynamic'; object-src 'none'`)
      .header('cache-control', mode.cacheControl)
      .header('x-build-id', mode.buildId)
      .type('text/html; charset=utf-8')
      .send(html);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, app, renders, mode, hold };
}

const RULES: RouteRulesInput = {
  '/fresh/**': { isr: true },
  '/short/**': { cache: { maxAge: 1, staleMaxAge: 60 } },
  '/lang/**': { cache: { maxAge: 60, varies: ['accept-language'] } },
  '/search/**': { cache: { maxAge: 60, query: ['q', 'page'] } },
  '/nocache': { cache: false },
};
/** The colour class the renderer reads from a cookie, as it declares it (color-mode.ts COLOR_MODE_PAGE_VARY). */
const COLOUR = { cookie: 'color-mode', values: ['light', 'dark'] };
/** The site's session cookie, as packages/cli/src/write-build-meta.ts names it, and what its pages vary by. */
const SESSIONS = { sessionCookie: 'cookbook_session', pageVaries: [COLOUR] };

describe('render cache', () => {
  let renderer: Renderer;
  let gateway: TestGateway;
  /** The render cache's clock: tests move it instead of sleeping. */
  const clock = { t: Date.now() };
  const get = (url: string, headers: Record<string, string> = {}) => gateway.app.inject({ url, headers });

  beforeAll(async () => {
    renderer = await startRenderer();
  });
  beforeEach(async () => {
    renderer.renders.clear();
    renderer.hold.until = null;
    Object.assign(renderer.mode, FIRST_MODE);
    const env = { RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url, PUBLIC_ORIGIN: 'https://cook.example' };
    clock.t = Date.now();
    gateway = await startGateway(env, metaOf('build-one', RULES, 1000, SESSIONS), undefined, () => clock.t);
  });
  afterEach(() => gateway.cleanup());
  afterAll(() => renderer.app.close());

  it('answers MISS, then HIT from memory with the same ETag, an age, and no second render', async () => {
    const first = await get('/fresh/a');
    const second = await get('/fresh/a');
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers.age).toMatch(/^\d+$/);
    expect(second.body).toBe(first.body);
    expect(renderer.renders.get('/fresh/a')).toBe(1);
  });

  it('counts hits, misses and stores on the metrics registry, by status only', async () => {
    await get('/fresh/metrics');
    await get('/fresh/metrics');
    await get('/nocache');
    const text = await gateway.app.telemetry.metrics.registry.metrics();
    expect(text).toContain('render_cache_requests_total{status="HIT",service="gateway"} 1');
    expect(text).toContain('render_cache_requests_total{status="MISS",service="gateway"} 1');
    expect(text).toContain('render_cache_requests_total{status="BYPASS",service="gateway"} 1');
    expect(text).toContain('render_cache_stores_total{service="gateway"} 1');
    expect(text).toMatch(/render_cache_memory_bytes\{service="gateway"\} [1-9]\d*/);
  });

  it('serves cached pages without a nonce, under a policy of hashes (no unsafe-inline)', async () => {
    await get('/fresh/csp');
    const hit = await get('/fresh/csp');
    expect(hit.body).not.toContain('nonce=');
    const policy = String(hit.headers['content-security-policy']);
    expect(policy).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/=]+'; object-src 'none'$/);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain(NONCE);
  });

  it('answers 304 to a matching If-None-Match, with no body', async () => {
    const { headers } = await get('/fresh/etag');
    const again = await get('/fresh/etag', { 'if-none-match': String(headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['x-cache']).toBe('HIT');
  });

  it('sends br, gzip or identity as asked, all decoding to the same document', async () => {
    const identity = (await get('/fresh/enc', { 'accept-encoding': 'identity' })).rawPayload;
    const br = await get('/fresh/enc', { 'accept-encoding': 'gzip, br' });
    const gz = await get('/fresh/enc', { 'accept-encoding': 'gzip' });
    expect([br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect(brotliDecompressSync(br.rawPayload).equals(identity)).toBe(true);
    expect(gunzipSync(gz.rawPayload).equals(identity)).toBe(true);
    expect(br.headers.vary).toContain('accept-encoding');
  });

  it('keys by an explicit colour preference and by declared varies, and by nothing else', async () => {
    const dark = await get('/fresh/v', { cookie: 'color-mode=dark.dark; _ga=1' });
    const darkAgain = await get('/fresh/v', { cookie: 'other=2; color-mode=dark.light' });
    const light = await get('/fresh/v', { cookie: 'color-mode=light.light' });
    // No cookie, `system`, or cookies that change nothing: the one entry every first visit shares.
    const plain = await get('/fresh/v', { cookie: 'tracking=abc; color-mode=system.dark' });
    expect(dark.body).toContain('class="dark"');
    expect(plain.body).toContain('class=""');
    const statuses = [dark, darkAgain, light, plain, await get('/fresh/v')].map((answer) => answer.headers['x-cache']);
    expect(statuses).toEqual(['MISS', 'HIT', 'MISS', 'MISS', 'HIT']);
    // The renderer only ever saw the colour-mode cookie, and only an explicit one.
    expect(dark.body).toContain('cookie=color-mode=dark ');
    expect(plain.body).toContain('cookie= ');
    const en = await get('/lang/x', { 'accept-language': 'en' });
    const de = await get('/lang/x', { 'accept-language': 'de' });
    expect([en.headers['x-cache'], de.headers['x-cache'], (await get('/lang/x', { 'accept-language': 'de' })).headers['x-cache']]).toEqual([
      'MISS',
      'MISS',
      'HIT',
    ]);
  });

  it('keys on what the build declares its pages vary by, and on no cookie it does not name', async () => {
    // Another build's renderer reads a `theme` cookie instead: the gateway follows the declaration.
    await gateway.store.publish(metaOf('build-two', RULES, 2000, { pageVaries: [{ cookie: 'theme', values: ['sepia'] }] }));
    await gateway.build.refresh();
    renderer.mode.buildId = 'build-two';
    const sepia = await get('/fresh/declared', { cookie: 'theme=sepia.v2' });
    const dark = await get('/fresh/declared', { cookie: 'color-mode=dark.dark' });
    const other = await get('/fresh/declared', { cookie: 'theme=neon' });
    expect([sepia, dark, other].map((answer) => answer.headers['x-cache'])).toEqual(['MISS', 'MISS', 'HIT']);
    // The renderer saw the declared cookie as the key has it, and never the undeclared one.
    expect(sepia.body).toContain('cookie=theme=sepia ');
    expect(dark.body).toContain('cookie= ');
  });

  it('keeps the last good build when a build declares a malformed variance', async () => {
    await gateway.store.publish(metaOf('build-bad', RULES, 3000, { pageVaries: [{ cookie: 'bad cookie', values: ['x'] }] }));
    await gateway.build.refresh();
    expect(gateway.build.info()?.id).toBe('build-one');
  });

  it('keys by the public origin and renders for it: another Host gets the one entry, never its own', async () => {
    // The renderer writes the forwarded host into the canonical link and the app config.
    const forged = await get('/fresh/host', { host: 'evil.example' });
    expect([forged.headers['x-cache'], forged.body.includes('host=cook.example ')]).toEqual(['MISS', true]);
    expect(forged.body).not.toContain('evil.example');
    for (const host of ['localhost', 'other.example', 'evil.example']) {
      const answer = await get('/fresh/host', { host });
      expect([answer.headers['x-cache'], answer.body.includes('host=cook.example ')]).toEqual(['HIT', true]);
    }
    expect(renderer.renders.get('/fresh/host')).toBe(1);
  });

  it('keys a JSON client apart from a browser, and asks the renderer with a fixed Accept', async () => {
    renderer.mode.status = 404;
    const json = await get('/fresh/missing', { accept: 'application/json' });
    const html = await get('/fresh/missing', { accept: 'text/html' });
    expect([json.headers['x-cache'], html.headers['x-cache']]).toEqual(['MISS', 'MISS']);
    expect((await get('/fresh/missing', { accept: 'application/json, */*' })).headers['x-cache']).toBe('HIT');
    expect((await get('/fresh/missing', { accept: 'text/html,application/xhtml+xml' })).headers['x-cache']).toBe('HIT');
    expect(renderer.renders.get('/fresh/missing')).toBe(2);
  });

  it('bypasses requests with a session cookie, and routes without a cache rule', async () => {
    const signedIn = await get('/fresh/s', { cookie: 'cookbook_session=abc' });
    expect(signedIn.headers['x-cache']).toBe('BYPASS');
    expect(signedIn.body).toContain('cookbook_session=abc');
    expect((await get('/nocache')).headers['x-cache']).toBe('BYPASS');
    expect((await get('/nocache')).headers['x-cache']).toBe('BYPASS');
    expect(renderer.renders.get('/nocache')).toBe(2);
  });

  it("marks a signed-in visitor's change: a new version cookie on the answer to each of their unsafe requests, none for anyone else", async () => {
    const post = (headers: Record<string, string>) =>
      gateway.app.inject({ method: 'POST', url: '/api/saved', headers: { 'content-type': 'application/json', ...headers }, payload: '{}' });
    const versionOf = (cookies: string | string[] | number | undefined) =>
      [cookies ?? []]
        .flat()
        .map(String)
        .find((cookie) => cookie.startsWith('tern-pv='));
    const first = versionOf((await post({ cookie: 'cookbook_session=abc' })).headers['set-cookie']);
    const second = versionOf((await post({ cookie: 'cookbook_session=abc' })).headers['set-cookie']);
    expect(first).toMatch(/^tern-pv=[a-z0-9.]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect(second).toMatch(/^tern-pv=/);
    expect(second!.split(';')[0]).not.toBe(first!.split(';')[0]);
    expect(versionOf((await post({})).headers['set-cookie'])).toBeUndefined();
    expect(versionOf((await get('/fresh/s', { cookie: 'cookbook_session=abc' })).headers['set-cookie'])).toBeUndefined();
  });

  it('bypasses only an authorization header when the build names no session cookie (a site without sessions)', async () => {
    await gateway.store.publish(metaOf('build-two', RULES, 2000));
    await waitFor(() => gateway.build.info()?.id === 'build-two', 5000);
    renderer.mode.buildId = 'build-two';
    await get('/fresh/no-sessions');
    expect((await get('/fresh/no-sessions', { cookie: 'cookbook_session=abc' })).headers['x-cache']).toBe('HIT');
    expect((await get('/fresh/no-sessions', { authorization: 'Bearer abc' })).headers['x-cache']).toBe('BYPASS');
  });

  it.each([
    ['a Set-Cookie', { setCookie: true }],
    ['cache-control: private', { cacheControl: 'private, max-age=60' }],
    ['cache-control: no-store', { cacheControl: 'no-store' }],
    ['a 500', { status: 500 }],
  ])('never stores an answer with %s', async (_name, change) => {
    Object.assign(renderer.mode, change);
    const first = await get('/fresh/never');
    const second = await get('/fresh/never');
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'MISS']);
    expect(renderer.renders.get('/fresh/never')).toBe(2);
    // The one answer that was sent carries its own nonce, used once.
    expect(first.body).toContain(`nonce="${NONCE}"`);
  });

  it('renders once for many identical concurrent misses', async () => {
    renderer.mode.delayMs = 150;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('/fresh/herd')));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(renderer.renders.get('/fresh/herd')).toBe(1);
  });

  it('serves a stale entry at once and refreshes it behind the answer, once', async () => {
    await get('/short/p');
    // Its render lock goes once the shared copy is written; then the entry ages a second.
    await gateway.cache!.idle();
    clock.t += 1100;
    renderer.mode.version = 'v2';
    // The refresh is held until all three answers are in.
    let land!: () => void;
    renderer.hold.until = new Promise((resolve) => (land = resolve));
    const stale = await Promise.all([get('/short/p'), get('/short/p'), get('/short/p')]);
    expect(stale.map((answer) => answer.headers['x-cache'])).toEqual(['STALE', 'STALE', 'STALE']);
    expect(stale[0]!.body).toContain('v1');
    await waitFor(() => renderer.renders.get('/short/p') === 2, 5000);
    land();
    // Three stale answers, one refresh (counted before the refreshed entry, fresh for 1 s, can age again).
    expect(renderer.renders.get('/short/p')).toBe(2);
    await waitFor(async () => (await get('/short/p')).body.includes('v2'), 5000);
  });

  it('renders again once an entry is past its stale window (max-age 1 s + swr 60 s), never serving it stale', async () => {
    await get('/short/old');
    await gateway.cache!.idle();
    renderer.mode.version = 'v2';
    clock.t += 61_000;
    const late = await get('/short/old');
    expect([late.headers['x-cache'], late.body.includes('v2')]).toEqual(['MISS', true]);
    expect(renderer.renders.get('/short/old')).toBe(2);
  });

  it('keeps the stale entry when the refresh fails, and does not keep the error', async () => {
    await get('/short/f');
    await gateway.cache!.idle();
    clock.t += 1100;
    renderer.mode.status = 500;
    expect((await get('/short/f')).headers['x-cache']).toBe('STALE');
    await waitFor(() => renderer.renders.get('/short/f') === 2, 5000);
    const still = await get('/short/f');
    expect([still.statusCode, still.body.includes('v1')]).toEqual([200, true]);
    renderer.mode.status = 200;
    renderer.mode.version = 'v3';
    await waitFor(async () => (await get('/short/f')).body.includes('v3'), 5000);
  });

  it('drops undeclared query parameters from the key and the render: no query can switch the page off', async () => {
    await get('/fresh/q?b=2&a=1&utm_source=x');
    const flood = [];
    for (let i = 0; i < 40; i++) flood.push((await get(`/fresh/q?r=${i}`)).headers['x-cache']);
    expect(flood.every((status) => status === 'HIT')).toBe(true);
    expect((await get('/fresh/q')).headers['x-cache']).toBe('HIT');
    expect([...renderer.renders.keys()].filter((url) => url.startsWith('/fresh/q'))).toEqual(['/fresh/q']);
  });

  it('keeps the parameters a route declares, sorted, in the key and the render', async () => {
    const first = await get('/search/x?page=2&utm_source=y&q=git');
    expect(first.body).toContain('/search/x?page=2&q=git ');
    expect((await get('/search/x?q=git&page=2&other=1')).headers['x-cache']).toBe('HIT');
    expect((await get('/search/x?q=css')).headers['x-cache']).toBe('MISS');
    for (let i = 0; i < 40; i++) await get(`/search/x?q=${i}`);
    // A flood of declared values is stored like any page (the byte budget evicts); the plain page stays cacheable.
    await get('/search/x');
    expect((await get('/search/x')).headers['x-cache']).toBe('HIT');
    expect(renderer.renders.get('/search/x?page=2&q=git')).toBe(1);
  });

  it('never serves a page of an older build', async () => {
    await get('/fresh/build');
    Object.assign(renderer.mode, { version: 'v2', buildId: 'build-two' });
    await gateway.store.publish(metaOf('build-two', RULES, 2000, SESSIONS));
    await waitFor(() => gateway.build.info()?.id === 'build-two', 5000);
    const after = await get('/fresh/build');
    expect([after.headers['x-cache'], after.body.includes('v2')]).toEqual(['MISS', true]);
  });

  it("never keeps a page another build rendered under this build's key (a renderer not yet replaced)", async () => {
    await gateway.store.publish(metaOf('build-two', RULES, 2000, SESSIONS));
    await waitFor(() => gateway.build.info()?.id === 'build-two', 5000);
    const first = await get('/fresh/skew');
    const second = await get('/fresh/skew');
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'MISS']);
    expect(renderer.renders.get('/fresh/skew')).toBe(2);
    renderer.mode.buildId = 'build-two';
    await get('/fresh/skew');
    expect((await get('/fresh/skew')).headers['x-cache']).toBe('HIT');
  });
});
