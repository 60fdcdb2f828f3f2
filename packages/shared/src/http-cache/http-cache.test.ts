import { describe, expect, it } from 'vitest';
import { etagMatches, isNotModified } from './conditional.js';
import { Lru } from './lru.js';
import { SingleFlight } from './single-flight.js';

describe('conditional requests', () => {
  it('compares weakly, accepts lists, arrays and *', () => {
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches(['"b"', '"a"'], '"a"')).toBe(true);
    expect(etagMatches(' * ', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });

  it('reads If-Modified-Since only without If-None-Match, to the second', () => {
    const mtime = new Date('2026-01-01T00:00:00.900Z');
    expect(isNotModified({ 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, '"a"', mtime)).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'Wed, 31 Dec 2025 23:59:59 GMT' }, '"a"', mtime)).toBe(false);
    expect(isNotModified({ 'if-none-match': '"b"', 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, '"a"', mtime)).toBe(false);
    expect(isNotModified({ 'if-modified-since': 'garbage' }, '"a"', mtime)).toBe(false);
  });
});

describe('Lru', () => {
  it('evicts the least recently used past the size bound and reports it', () => {
    const evicted: string[] = [];
    const lru = new Lru<string>({ maxEntries: 10, maxSize: 10, onEvict: (key) => evicted.push(key) });
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    lru.get('a');
    lru.set('c', 'C', 4);
    expect(evicted).toEqual(['b']);
    expect([...lru.keys()].sort()).toEqual(['a', 'c']);
    expect(lru.totalSize).toBe(8);
  });

  it('evicts past the entry bound, and replacing a key is not an eviction', () => {
    const evicted: string[] = [];
    const lru = new Lru<number>({ maxEntries: 2, onEvict: (key) => evicted.push(key) });
    lru.set('a', 1);
    lru.set('a', 2);
    lru.set('b', 3);
    lru.set('c', 4);
    expect(evicted).toEqual(['a']);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(2);
  });
});

describe('SingleFlight', () => {
  it('runs identical work once and forgets it when settled, errors included', async () => {
    const flight = new SingleFlight<number>();
    let runs = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const work = async () => {
      await gate;
      return ++runs;
    };
    const both = Promise.all([flight.run('k', work), flight.run('k', work)]);
    expect(flight.size).toBe(1);
    open();
    expect(await both).toEqual([1, 1]);
    expect(flight.size).toBe(0);
    await expect(flight.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await flight.run('k', work)).toBe(2);
  });
});
