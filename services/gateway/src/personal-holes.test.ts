/**
 * The splice of a shared entry with a visitor's parts, against a small real renderer that answers
 * `POST /_personal` as told: on time, late (past the budget), with an error, or with the wrong
 * count. Every failure serves the anonymous parts with one log line; the answer is private.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger } from './test-support/upstreams.js';
import { gunzipSync } from 'node:zlib';
import { createPersonalHoles, holesOf, type PersonalHoles } from './personal-holes.js';
import { createPartsMemory, type PartsMemory } from './personal-parts-memory.js';
import type { CacheEntry } from './render-cache/cache-entry.js';

const part = (name: string, props: string, content: string) =>
  `<template data-hole="${name}" data-props="${props}"></template>${content}<template data-hole-end=""></template>`;
const BODY =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/a.css"></head><body><header>' +
  part('account', '{&quot;signedInOnly&quot;:false}', '<a>Sign in</a>') +
  '</header><main>' +
  part('save', '{&quot;recipeId&quot;:&quot;x&quot;}', '<a>Sign in to save</a>') +
  '</main>' +
  part('$state', '{}', '') +
  '</body></html>';

function entryOf(body: string, personal = 'parts'): CacheEntry {
  return {
    key: 'b:/page?#',
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', vary: 'cookie', 'x-personal': personal },
    etag: '"e"',
    storedAt: Date.now(),
    freshUntil: null,
    staleUntil: null,
    bodies: { identity: Buffer.from(body) },
  };
}

const mode = { delayMs: 0, status: 200, count: 3 };
const asked: unknown[] = [];
let renderer: FastifyInstance;
let gateway: FastifyInstance;
let holes: PersonalHoles;
/** The same with room for a busy machine, for the answers that must arrive. */
let roomy: PersonalHoles;
/** With a memory of each visitor's parts. */
let keeping: PersonalHoles;
let memory: PartsMemory;
const sessionOf = (request: { headers: { cookie?: string | undefined } }) =>
  /(?:^|; )session=([^;]*)/.exec(request.headers.cookie ?? '')?.[1];
const forgetful = () => createPartsMemory({ ttlMs: 0, maxBytes: 1, now: Date.now });
const log = capturingLogger();

beforeAll(async () => {
  renderer = Fastify();
  renderer.post('/_personal', async (request, reply) => {
    asked.push({ body: request.body, cookie: request.headers.cookie });
    await new Promise((resolve) => setTimeout(resolve, mode.delayMs));
    const html = ['<span>Ada</span>', '<button>Saved</button>', '<script type="application/json" id="__PERSONAL__">{}</script>'];
    return reply.code(mode.status).send({ html: html.slice(0, mode.count) });
  });
  const url = await renderer.listen({ port: 0, host: '127.0.0.1' });
  holes = createPersonalHoles({ renderer: () => url, budgetMs: 50, log: log.logger, memory: forgetful(), sessionOf });
  roomy = createPersonalHoles({ renderer: () => url, budgetMs: 5000, log: log.logger, memory: forgetful(), sessionOf });
  memory = createPartsMemory({ ttlMs: 30_000, maxBytes: 1024 * 1024, now: Date.now });
  keeping = createPersonalHoles({ renderer: () => url, budgetMs: 5000, log: log.logger, memory, sessionOf });
  gateway = Fastify({ loggerInstance: log.logger });
  gateway.get('/page', (request, reply) => {
    const serving = mode.delayMs > 0 ? holes : roomy;
    if (!serving.serve(request, reply, entryOf(BODY), 'HIT', null)) return reply.send('not stitched');
  });
  const kept = entryOf(BODY);
  gateway.get('/kept', (request, reply) => {
    if (!keeping.serve(request, reply, kept, 'HIT', null)) return reply.send('not stitched');
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await gateway.close();
  // The clients before the server: a late answer is still read to its end (its connection kept),
  // so the late test's request may still be open; closing the pool waits for it.
  await holes.close();
  await roomy.close();
  await keeping.close();
  await renderer.close();
});

const failures = () => log.lines.filter((line) => line.msg === 'personal parts failed; serving their anonymous state');

async function page(path = '/page', cookie = 'session=abc'): Promise<{ status: number; headers: Headers; text: string }> {
  const address = gateway.server.address() as { port: number };
  const response = await fetch(`http://127.0.0.1:${address.port}${path}`, { headers: { cookie } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The raw gzip body, as a browser receives it (fetch would decode it). */
async function gzipPage(path: string, cookie: string): Promise<Buffer> {
  const { request } = await import('node:http');
  const address = gateway.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    request(`http://127.0.0.1:${address.port}${path}`, { headers: { cookie, 'accept-encoding': 'gzip' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    })
      .on('error', reject)
      .end();
  });
}

const STITCHED = BODY.replace('<a>Sign in</a>', '<span>Ada</span>')
  .replace('<a>Sign in to save</a>', '<button>Saved</button>')
  .replace(part('$state', '{}', ''), part('$state', '{}', '<script type="application/json" id="__PERSONAL__">{}</script>'));

describe('holesOf', () => {
  it('finds each part, its name and props as written, and where its content lies', () => {
    const body = Buffer.from(BODY);
    const found = holesOf(body);
    expect(found.map((h) => [h.name, h.props, body.toString('utf8', h.start, h.end)])).toEqual([
      ['account', '{&quot;signedInOnly&quot;:false}', '<a>Sign in</a>'],
      ['save', '{&quot;recipeId&quot;:&quot;x&quot;}', '<a>Sign in to save</a>'],
      ['$state', '{}', ''],
    ]);
  });

  it('finds none in a page without parts, with a part left open, or with parts nested', () => {
    expect(holesOf(Buffer.from('<html><body>plain</body></html>'))).toEqual([]);
    expect(holesOf(Buffer.from('<template data-hole="a" data-props="{}"></template>open'))).toEqual([]);
    const nested = part('a', '{}', part('b', '{}', 'x'));
    expect(holesOf(Buffer.from(nested))).toEqual([]);
  });
});

describe('a stitched answer', () => {
  it("puts the visitor's parts between the markers, sends their cookie, and is private", async () => {
    Object.assign(mode, { delayMs: 0, status: 200, count: 3 });
    const answer = await page();
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(STITCHED);
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    expect(answer.headers.get('x-cache')).toBe('HIT');
    expect(answer.headers.get('etag')).toBeNull();
    expect(asked.at(-1)).toEqual({
      cookie: 'session=abc',
      body: {
        path: '/page',
        parts: [
          ['account', '{&quot;signedInOnly&quot;:false}'],
          ['save', '{&quot;recipeId&quot;:&quot;x&quot;}'],
          ['$state', '{}'],
        ],
      },
    });
  });

  it.each([
    ['late (past the 50 ms budget)', { delayMs: 600, status: 200, count: 3 }, /over 50 ms/],
    ['an error', { delayMs: 0, status: 500, count: 3 }, /answered 500/],
    ['the wrong number of parts', { delayMs: 0, status: 200, count: 2 }, /2 parts for 3/],
  ])('serves the anonymous parts when the answer is %s, with one log line', async (_what, given, reason) => {
    Object.assign(mode, given);
    const before = failures().length;
    const started = Date.now();
    const answer = await page();
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(BODY);
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    expect(Date.now() - started).toBeLessThan(mode.delayMs > 0 ? mode.delayMs : 1000);
    expect(failures().length - before).toBe(1);
    expect(String(failures().at(-1)?.reason)).toMatch(reason);
  });

  it('serves an entry the page did not mark as any hit', () => {
    expect(holes.serves(entryOf(BODY))).toBe(true);
    expect(holes.serves(entryOf(BODY, ''))).toBe(false);
  });
});

describe("a visitor's kept parts", () => {
  it('answers their next page without asking the renderer, in identity and in gzip', async () => {
    Object.assign(mode, { delayMs: 0, status: 200, count: 3 });
    const before = asked.length;
    expect((await page('/kept', 'session=k1')).text).toBe(STITCHED);
    expect(asked.length - before).toBe(1);
    expect((await page('/kept', 'session=k1')).text).toBe(STITCHED);
    expect(gunzipSync(await gzipPage('/kept', 'session=k1')).toString()).toBe(STITCHED);
    expect(gunzipSync(await gzipPage('/kept', 'session=k1')).toString()).toBe(STITCHED);
    expect(asked.length - before).toBe(1);
  });

  it('asks again for another visitor, and once the visitor changed something', async () => {
    Object.assign(mode, { delayMs: 0, status: 200, count: 3 });
    await page('/kept', 'session=k2');
    const before = asked.length;
    await page('/kept', 'session=k2; theme=dark');
    await page('/kept', 'session=k3');
    expect(asked.length - before).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2));
    memory.changed('k2');
    await new Promise((resolve) => setTimeout(resolve, 2));
    await page('/kept', 'session=k2');
    await page('/kept', 'session=k2');
    expect(asked.length - before).toBe(3);
  });

  it('keeps no answer that failed: the next page asks again', async () => {
    Object.assign(mode, { delayMs: 0, status: 500, count: 3 });
    expect((await page('/kept', 'session=k4')).text).toBe(BODY);
    Object.assign(mode, { delayMs: 0, status: 200, count: 3 });
    const before = asked.length;
    expect((await page('/kept', 'session=k4')).text).toBe(STITCHED);
    expect(asked.length - before).toBe(1);
  });
});
