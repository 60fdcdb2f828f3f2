import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { toFetchRequest } from './fetch-request.js';

/** The parts of a Fastify request and reply toFetchRequest reads. */
function fakes(method = 'GET') {
  const raw = Object.assign(new EventEmitter(), { writableFinished: false });
  const request = {
    url: '/category/git?x=1',
    method,
    host: 'cook.example:8443',
    protocol: 'https',
    headers: { accept: 'text/html', cookie: 'a=1; b=2', 'x-many': ['one', 'two'], absent: undefined },
  } as unknown as FastifyRequest;
  return { request, reply: { raw } as unknown as FastifyReply, raw };
}

describe('toFetchRequest', () => {
  it('gives the public URL, the method and the headers', () => {
    const { request, reply } = fakes('HEAD');
    const fetchRequest = toFetchRequest(request, reply);
    expect(fetchRequest.url).toBe('https://cook.example:8443/category/git?x=1');
    expect(fetchRequest.method).toBe('GET');
    expect(fetchRequest.headers.get('cookie')).toBe('a=1; b=2');
    expect(fetchRequest.headers.get('x-many')).toBe('one, two');
    expect(fetchRequest.headers.has('absent')).toBe(false);
  });

  it('keeps a path that starts with // on this site', () => {
    const { request, reply } = fakes();
    expect(toFetchRequest(request, reply, '//evil.example/x').url).toBe('https://cook.example:8443/evil.example/x');
  });

  it('keeps a path that starts with a backslash, or reads as a URL, on this site', () => {
    const { request, reply } = fakes();
    expect(new URL(toFetchRequest(request, reply, '/\\evil.example/x').url).host).toBe('cook.example:8443');
    expect(new URL(toFetchRequest(request, reply, 'http://evil.example/x').url).host).toBe('cook.example:8443');
  });

  it('aborts its signal when the client goes away before the answer ended, and not after', () => {
    const gone = fakes();
    const aborted = toFetchRequest(gone.request, gone.reply).signal;
    expect(aborted.aborted).toBe(false);
    gone.raw.emit('close');
    expect(aborted.aborted).toBe(true);

    const done = fakes();
    const finished = toFetchRequest(done.request, done.reply).signal;
    done.raw.writableFinished = true;
    done.raw.emit('close');
    expect(finished.aborted).toBe(false);
  });

  it('carries the signal to a Request made from it, as React Router makes one for an action', () => {
    const { request, reply, raw } = fakes('POST');
    const derived = new Request('https://cook.example/x', { method: 'POST', signal: toFetchRequest(request, reply).signal });
    raw.emit('close');
    expect(derived.signal.aborted).toBe(true);
  });
});
