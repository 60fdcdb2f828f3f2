import { afterEach, describe, expect, it, vi } from 'vitest';
import { ICON_FETCH_TIMEOUT_MS } from './icons-loader.js';
import { createIconLoader } from './icons-loader.js';

type Handler = (url: URL, signal: AbortSignal) => Response | Promise<Response>;

/** A service behind the loader's injected fetch, whose answer each test chooses; it records every request path. */
function fakeService(origin: string): { url: string; requests: string[]; handle: (h: Handler) => void; answer: Handler } {
  const requests: string[] = [];
  let handler: Handler = () => new Response(null, { status: 500 });
  const answer: Handler = (url, signal) => {
    requests.push(url.pathname + url.search);
    return handler(url, signal);
  };
  return { url: origin, requests, handle: (h) => (handler = h), answer };
}

const ICON = '<path d="M0 0h24v24H0z"/>';
function answerSet(prefix: string, names: string[]): Response {
  const body = JSON.stringify({ prefix, width: 24, height: 24, icons: Object.fromEntries(names.map((n) => [n, { body: ICON }])) });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}
function namesOf(url: URL): string[] {
  return url.searchParams.get('icons')?.split(',') ?? [];
}
function collectionOf(url: URL): string {
  return url.pathname.split('/').pop()?.replace('.json', '') ?? '';
}
/** An answer that never comes: the request ends only when the loader aborts it, as fetch does. */
function never(_url: URL, signal: AbortSignal): Promise<Response> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
}

const local = fakeService('http://icons.test');
const iconify = fakeService('http://iconify.test');

/** Sends each request to the fake service of its origin. */
const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const service = url.origin === local.url ? local : iconify;
  return service.answer(url, init?.signal ?? new AbortController().signal);
};

afterEach(() => {
  local.requests.length = 0;
  iconify.requests.length = 0;
  vi.useRealTimers();
});

function loader(warnings: string[] = []) {
  return createIconLoader({
    localEndpoint: `${local.url}/api/_nuxt_icon`,
    iconifyApi: iconify.url,
    fetch: fakeFetch,
    warn: (m) => warnings.push(m),
  });
}

describe('icon loader', () => {
  it('batches names asked for together into one request per collection', async () => {
    local.handle((url) => answerSet(collectionOf(url), namesOf(url)));
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
    local.handle(() => new Response(null, { status: 503 }));
    iconify.handle((url) => answerSet('tabler', namesOf(url)));
    const icon = await loader().load('tabler:home');
    expect(icon?.body).toBe(ICON);
    expect(local.requests).toEqual(['/api/_nuxt_icon/tabler.json?icons=home']);
    expect(iconify.requests).toEqual(['/tabler.json?icons=home']);
  });

  it(`gives up on the local service after ${ICON_FETCH_TIMEOUT_MS} ms and asks the public API`, async () => {
    vi.useFakeTimers();
    local.handle(never);
    iconify.handle((url) => answerSet('lucide', namesOf(url)));
    const icon = loader().load('lucide:moon');
    await vi.advanceTimersByTimeAsync(ICON_FETCH_TIMEOUT_MS - 1);
    expect([local.requests.length, iconify.requests.length]).toEqual([1, 0]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await icon)?.body).toBe(ICON);
    expect(iconify.requests).toHaveLength(1);
  });

  it('does not ask the public API when the local answer is good but lacks a name; logs a missing icon once', async () => {
    local.handle((url) =>
      answerSet(
        'lucide',
        namesOf(url).filter((n) => n !== 'nope'),
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
    local.handle(() => answerSet('other', ['x']));
    iconify.handle(() => new Response('404', { headers: { 'content-type': 'application/json' } }));
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
    local.handle((url) => answerSet('lucide', namesOf(url)));
    const l = loader();
    let calls = 0;
    const stop = l.subscribe(() => calls++);
    await l.load('lucide:copy');
    stop();
    await l.load('lucide:check');
    expect(calls).toBe(1);
  });
});
