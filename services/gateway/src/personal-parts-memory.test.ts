import { describe, expect, it } from 'vitest';
import { changesState, createPartsMemory, partsKey, versionValue } from './personal-parts-memory.js';

function memoryAt(start = 1_000, ttlMs = 30_000, maxBytes = 1024 * 1024) {
  const clock = { now: start };
  const memory = createPartsMemory({ ttlMs, maxBytes, now: () => clock.now });
  return { memory, clock };
}

const parts = (...html: string[]) => html.map((part) => Buffer.from(part));

describe('partsKey', () => {
  it('keys by the whole Cookie header, the address and the entry, so two visitors never share one', () => {
    const a = partsKey('s=1; theme=dark', undefined, '/a', 'L');
    expect(a).not.toBe(partsKey('s=2; theme=dark', undefined, '/a', 'L'));
    expect(a).not.toBe(partsKey('s=1; theme=light', undefined, '/a', 'L'));
    expect(a).not.toBe(partsKey('s=1; theme=dark', undefined, '/a?x=1', 'L'));
    expect(a).not.toBe(partsKey('s=1; theme=dark', undefined, '/a', 'M'));
  });

  it('keeps nothing for a request without cookies or with other credentials', () => {
    expect(partsKey(undefined, undefined, '/a', 'L')).toBeNull();
    expect(partsKey('', undefined, '/a', 'L')).toBeNull();
    expect(partsKey('s=1', 'Bearer x', '/a', 'L')).toBeNull();
  });
});

describe('createPartsMemory', () => {
  it('answers a visitor their kept parts until the time to live has passed', () => {
    const { memory, clock } = memoryAt();
    memory.keep('k', 's1', parts('<b>Ada</b>'), clock.now);
    clock.now += 29_999;
    expect(memory.get('k', 's1')?.parts.map(String)).toEqual(['<b>Ada</b>']);
    clock.now += 1;
    expect(memory.get('k', 's1')).toBeUndefined();
  });

  it('forgets a visitor’s parts once they change something, and never keeps parts asked for before the change', () => {
    const { memory, clock } = memoryAt();
    memory.keep('k', 's1', parts('before'), clock.now);
    memory.keep('other', 's2', parts('theirs'), clock.now);
    clock.now += 5;
    memory.changed('s1');
    expect(memory.get('k', 's1')).toBeUndefined();
    expect(memory.get('other', 's2')?.parts.map(String)).toEqual(['theirs']);
    // Asked in the same millisecond as the change was answered, or before it: not kept.
    memory.keep('k', 's1', parts('in flight'), clock.now);
    expect(memory.get('k', 's1')).toBeUndefined();
    clock.now += 1;
    memory.keep('k', 's1', parts('after'), clock.now);
    expect(memory.get('k', 's1')?.parts.map(String)).toEqual(['after']);
  });

  it('keeps nothing with a time to live of 0', () => {
    const { memory, clock } = memoryAt(1_000, 0);
    expect(memory.enabled).toBe(false);
    memory.keep('k', 's1', parts('x'), clock.now);
    expect(memory.get('k', 's1')).toBeUndefined();
  });

  it('holds at most its bytes, the least recently used going first', () => {
    const { memory, clock } = memoryAt(1_000, 30_000, 1_000);
    memory.keep('a', 's1', parts('x'.repeat(400)), clock.now);
    memory.keep('b', 's2', parts('y'.repeat(400)), clock.now);
    memory.get('a', 's1');
    memory.keep('c', 's3', parts('z'.repeat(400)), clock.now);
    expect(memory.get('a', 's1')).toBeDefined();
    expect(memory.get('b', 's2')).toBeUndefined();
    expect(memory.get('c', 's3')).toBeDefined();
  });
});

describe("a kept answer's gzip body", () => {
  it("counts in the memory's bytes once made, evicting the least recently used for it", () => {
    const { memory, clock } = memoryAt(1_000, 30_000, 2_000);
    const a = memory.keep('a', 's1', parts('x'.repeat(400)), clock.now);
    memory.keep('b', 's2', parts('y'.repeat(400)), clock.now);
    const body = memory.withGzipBody(a, Buffer.alloc(1_200));
    expect(body.length).toBe(1_200);
    expect(memory.get('a', 's1')?.gzipBody).toBe(body);
    expect(memory.get('b', 's2')).toBeUndefined();
  });
});

describe('changesState and versionValue', () => {
  it('counts only unsafe methods as changes', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].every(changesState)).toBe(true);
    expect(['GET', 'HEAD', 'OPTIONS'].some(changesState)).toBe(false);
  });

  it('gives each change a new cookie value, safe in a cookie', () => {
    const values = new Set(Array.from({ length: 50 }, () => versionValue(1_000)));
    expect(values.size).toBe(50);
    for (const value of values) expect(value).toMatch(/^[a-z0-9.]+$/);
  });
});
