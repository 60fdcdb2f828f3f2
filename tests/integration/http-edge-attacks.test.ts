/**
 * Issue 32's attacks on the HTTP edge, through the whole stack over raw sockets: slow uploads that
 * held the gateway's connections to the renderer, spellings the renderer resolved that each got a
 * cache entry, an absolute-form request line whose authority reached a Location, a JSON 404 that
 * said nothing to caches in front, and HTTP/1.0 with Transfer-Encoding that kept its connection.
 */
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../support/raw-http.js';
import { stackForFile, type Stack } from '../support/stack.js';
import { waitFor } from '../support/wait-for.js';

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
/** The grace every body gets before the floor rate counts: long enough to probe under the attack. */
const BODY_GRACE_MS = 8000;

// The production defaults but the body's grace (10 s), made shorter so the test takes seconds.
const stack = stackForFile({ env: { BODY_GRACE_MS: String(BODY_GRACE_MS) } });

const portOf = (url: string) => Number(new URL(url).port);

interface SlowUpload {
  /** Resolves once the connection is open and the headers are sent. */
  sent: Promise<void>;
  /** Resolves with when the server closed the connection and the status it answered (0: none). */
  closed: Promise<{ at: number; status: number }>;
  open: () => boolean;
}

/** `POST /api/auth/login` with `Content-Length: 2000`, then one byte every 2 s, from 127.0.0.1. */
function slowUpload(port: number, origin: string): SlowUpload {
  const socket = connect({ port, host: '127.0.0.1' });
  let answer = '';
  let isOpen = true;
  let timer: NodeJS.Timeout | undefined;
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<{ at: number; status: number }>((resolve) =>
    socket.once('close', () => {
      isOpen = false;
      clearInterval(timer);
      resolve({ at: Date.now(), status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0) });
    }),
  );
  const sent = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      const head = [
        'POST /api/auth/login HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Origin: ${origin}`,
        'Content-Type: application/json',
        'Content-Length: 2000',
        `User-Agent: ${PERSON}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n{`, () => resolve());
      timer = setInterval(() => socket.writable && socket.write(' '), 2000);
    }),
  );
  return { sent, closed, open: () => isOpen };
}

/** GET `path` from another address (127.0.0.2: Linux answers the whole 127/8 on loopback); its status and milliseconds. */
function timedGetFrom(localAddress: string, base: string, path: string, timeoutMs: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: portOf(base), path, localAddress, headers: { 'user-agent': PERSON, accept: 'text/html' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.setTimeout(timeoutMs, () => {
      request.destroy();
      resolve({ status: 0, ms: performance.now() - started });
    });
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end();
  });
}

describe('slow uploads (issue 32.1)', () => {
  it('leave /login answering another address within 1 s, and are closed within a minute', { timeout: 120_000 }, async () => {
    const port = portOf(stack.url);
    const started = Date.now();
    const uploads = Array.from({ length: 300 }, () => slowUpload(port, stack.url));
    await Promise.all(uploads.map((upload) => upload.sent));
    // Five probes from another address while every upload is still open (under the grace).
    const probes: { status: number; ms: number }[] = [];
    for (let i = 0; i < 5; i++) {
      expect(uploads.filter((upload) => upload.open()).length).toBe(300);
      probes.push(await timedGetFrom('127.0.0.2', stack.url, '/login', 10_000));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(`/login from 127.0.0.2 under 300 slow uploads: ${probes.map((p) => `${p.status} in ${Math.round(p.ms)} ms`).join(', ')}`);
    for (const probe of probes) {
      expect(probe.status).toBe(200);
      expect(probe.ms).toBeLessThan(1000);
    }
    const ends = await Promise.all(uploads.map((upload) => upload.closed));
    const last = Math.max(...ends.map((end) => end.at)) - started;
    console.log(`the 300 uploads were closed within ${last} ms, statuses ${[...new Set(ends.map((end) => end.status))].join(', ')}`);
    expect(last).toBeLessThan(60_000);
    expect(ends.every((end) => end.status === 408)).toBe(true);
  });

  it('still takes an upload at a fair pace, and a sign-in body sent at once', async () => {
    const answer = await fetch(`${stack.url}/api/auth/login`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'application/json', 'user-agent': PERSON },
      body: JSON.stringify({ email: 'nobody@cookbook.test', password: 'wrong-password' }),
    });
    expect(answer.status).toBe(401);
    await answer.arrayBuffer();
  });
});

// ---------------------------------------------------------------------------------------------

const BASES = ['/category/git', '/category/docker', '/category/git/_payload.json', '/'];

/** A small seeded generator, so the 1,000 spellings are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Ways to respell a path that a browser's parser (and the renderer's) resolves to the same page. */
const RESPELLINGS: ((segments: string[], pick: (n: number) => number) => string[])[] = [
  (s, pick) => insertAt(s, pick(s.length + 1), ['.', '%2E', '%2e']![pick(3)]!),
  (s, pick) => insertAt(s, pick(s.length + 1), 'x', ['..', '%2E%2E', '.%2e', '%2e.']![pick(4)]!),
  (s, pick) => insertAt(s, pick(s.length + 1), ''),
  (s) => [...s, ''],
  (s) => [...s, '.'],
];

const insertAt = (segments: string[], at: number, ...inserted: string[]) => [...segments.slice(0, at), ...inserted, ...segments.slice(at)];

/** 1,000 distinct non-canonical spellings of BASES, each with the canonical path it must be sent to. */
function spellings(): { spelling: string; canonical: string }[] {
  const random = seeded(32);
  const pick = (n: number) => Math.floor(random() * n);
  const out = new Map<string, string>();
  while (out.size < 1000) {
    const base = BASES[pick(BASES.length)]!;
    let segments = base.split('/').slice(1).filter(Boolean);
    for (let i = 0, n = 1 + pick(3); i < n; i++) segments = RESPELLINGS[pick(RESPELLINGS.length)]!(segments, pick);
    const joiner = pick(4) === 0 ? '\\' : '/';
    let spelling = `/${segments.join(joiner)}`;
    if (pick(4) === 0) spelling += '\\';
    if (pick(3) === 0) spelling += `#part-${pick(100)}`;
    if (spelling !== base) out.set(spelling, base);
  }
  return [...out].map(([spelling, canonical]) => ({ spelling, canonical }));
}

/** The embedded shared store's entries (all builds' folders). */
async function storeFiles(running: Stack): Promise<string[]> {
  const dir = join(dirname(running.buildStoreDir!), 'render-cache');
  const files: string[] = [];
  for (const build of await readdir(dir).catch(() => [] as string[]))
    for (const name of await readdir(join(dir, build)).catch(() => [] as string[])) if (name.endsWith('.bin')) files.push(name);
  return files.sort();
}

const rawGet = (path: string, accept = 'text/html') =>
  rawRequest(
    portOf(stack.url),
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: ${accept}\r\nUser-Agent: ${PERSON}\r\nConnection: close\r\n\r\n`,
  );

describe('spellings of a page (issue 32.2)', () => {
  it('sends 1,000 spellings to the canonical path and leaves the store and the real pages as they were', { timeout: 120_000 }, async () => {
    // The real pages, cached: their bodies and the store's entries before.
    const pages = ['/category/git', '/category/docker', '/'];
    for (const page of pages) await rawGet(page);
    await waitFor(async () => (await rawGet('/category/docker')).headers['x-cache'] === 'HIT', 5000);
    const before = await Promise.all(pages.map((page) => rawGet(page)));
    await waitFor(async () => (await storeFiles(stack.running)).length >= 2, 5000);
    const filesBefore = await storeFiles(stack.running);

    const all = spellings();
    expect(all.length).toBe(1000);
    const wrong: string[] = [];
    for (let i = 0; i < all.length; i += 25) {
      const answers = await Promise.all(all.slice(i, i + 25).map(({ spelling }) => rawGet(spelling)));
      answers.forEach((answer, j) => {
        const { spelling, canonical } = all[i + j]!;
        const redirected = answer.status === 308 && answer.headers.location === canonical;
        if (!redirected && answer.status !== 400) wrong.push(`${spelling} → ${answer.status} ${answer.headers.location ?? ''}`);
      });
    }
    expect(wrong).toEqual([]);

    expect(await storeFiles(stack.running)).toEqual(filesBefore);
    const after = await Promise.all(pages.map((page) => rawGet(page)));
    after.forEach((answer, i) => {
      expect([pages[i], answer.status, answer.headers['x-cache']]).toEqual([pages[i], 200, 'HIT']);
      expect(answer.headers.etag).toBe(before[i]!.headers.etag);
      expect(answer.body).toBe(before[i]!.body);
    });
  });

  it('is the renderer’s rule too: asked directly, it redirects the same spellings', async () => {
    const renderer = portOf(stack.running.serviceUrl('renderer'));
    for (const { spelling, canonical } of spellings().slice(0, 40)) {
      const answer = await rawRequest(
        renderer,
        `GET ${spelling} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
      );
      expect([spelling, answer.status, answer.headers.location]).toEqual([spelling, 308, canonical]);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('an absolute-form request line (issue 32.3)', () => {
  it('is answered from its path: the authority never reaches a Location or a page', async () => {
    const port = portOf(stack.url);
    const ask = (target: string) =>
      rawRequest(
        port,
        `GET ${target} HTTP/1.1\r\nHost: localhost:${port}\r\nAccept: text/html\r\nUser-Agent: ${PERSON}\r\nConnection: close\r\n\r\n`,
      );
    const slash = await ask('http://evil.example/category/git/');
    expect([slash.status, slash.headers.location]).toEqual([308, '/category/git']);
    const dots = await ask('https://evil.example:8443/category/./git');
    expect([dots.status, dots.headers.location]).toEqual([308, '/category/git']);
    const page = await ask('http://evil.example/category/git');
    expect(page.status).toBe(200);
    expect(page.raw).not.toContain('evil.example');
    const login = await ask('http://evil.example/login?redirect=%2Fsaved');
    expect(login.status).toBe(200);
    expect(login.raw).not.toContain('evil.example');
  });
});

describe('errors whose body varies with Accept (issue 32.4)', () => {
  it('say Vary: Accept and no-cache, alike for the JSON and the HTML 404 of a page path', async () => {
    for (const base of [stack.url, stack.running.serviceUrl('renderer')]) {
      for (const accept of ['application/json', 'text/html']) {
        const answer = await fetch(`${base}/category/no-such-category`, { headers: { accept, 'user-agent': PERSON } });
        await answer.arrayBuffer();
        expect([base, accept, answer.status]).toEqual([base, accept, 404]);
        expect(answer.headers.get('content-type')).toContain(accept);
        expect(answer.headers.get('vary')?.toLowerCase()).toMatch(/\baccept\b/);
        expect(answer.headers.get('cache-control')).toMatch(/\b(no-cache|no-store|private)\b/);
      }
    }
  });

  it('say the same for the gateway’s own errors (a 405 of a page path)', async () => {
    const answer = await fetch(`${stack.url}/category/git`, {
      method: 'DELETE',
      headers: { accept: 'application/json', origin: stack.url },
    });
    await answer.arrayBuffer();
    expect(answer.status).toBe(405);
    expect(answer.headers.get('vary')?.toLowerCase()).toMatch(/\baccept\b/);
    expect(answer.headers.get('cache-control')).toMatch(/\b(no-cache|no-store|private)\b/);
  });
});

describe('HTTP/1.0 with Transfer-Encoding (issue 32.5)', () => {
  it('is refused and its connection closed: a request pipelined after it is never run', async () => {
    const second = 'GET /category/git HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\n\r\n';
    for (const first of [
      'GET /category/git HTTP/1.0\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /api/auth/login HTTP/1.0\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    ]) {
      const answer = await rawRequest(portOf(stack.url), first + second, { closeWaitMs: 1000 });
      expect(answer.status).toBe(400);
      expect(answer.closed).toBe(true);
      expect(answer.raw.match(/^HTTP\/1\.[01] \d{3}/gm)).toHaveLength(1);
    }
  });
});
