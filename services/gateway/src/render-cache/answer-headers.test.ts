import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { headersPerEntry, withRequestHeaders } from './answer-headers.js';
import type { CacheEntry } from './cache-entry.js';

const entry = (key: string) => ({ key }) as unknown as CacheEntry;
const request = (protocol: string) => ({ protocol }) as unknown as FastifyRequest;
const reply = (headers: Record<string, string | undefined>) => ({ getHeaders: () => headers }) as unknown as FastifyReply;

describe('header lists made once per entry', () => {
  it('makes each entry and variant once, and another variant or entry anew', () => {
    const make = vi.fn((made: CacheEntry, variant: string) => ['x-key', `${made.key} ${variant}`]);
    const prepared = headersPerEntry(make);
    const page = entry('a');
    expect(prepared(page, 'br HIT')).toEqual(['x-key', 'a br HIT']);
    expect(prepared(page, 'br HIT')).toBe(prepared(page, 'br HIT'));
    expect(prepared(page, 'identity STALE')).toEqual(['x-key', 'a identity STALE']);
    expect(prepared(entry('a'), 'br HIT')).toEqual(['x-key', 'a br HIT']);
    expect(make).toHaveBeenCalledTimes(3);
  });

  it('adds what varies per request to a copy, never to the shared list', () => {
    const shared = Object.freeze(['content-type', 'text/html']);
    const first = withRequestHeaders(shared, request('http'), reply({ 'x-request-id': 'one', dropped: undefined }), 3);
    const second = withRequestHeaders(shared, request('https'), reply({ 'x-request-id': 'two' }), 0);
    expect(first).toEqual(['content-type', 'text/html', 'x-request-id', 'one', 'age', '3']);
    expect(second).toEqual([
      'content-type',
      'text/html',
      'x-request-id',
      'two',
      'age',
      '0',
      'strict-transport-security',
      expect.stringContaining('max-age='),
    ]);
    expect(shared).toEqual(['content-type', 'text/html']);
  });
});
