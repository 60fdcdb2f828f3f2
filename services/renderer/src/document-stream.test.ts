import { createElement, Suspense, use } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createNonce } from './csp.js';
import { DocumentStream } from './document-stream.js';

/** Collects what the stream emits, chunk by chunk. */
function collect(stream: DocumentStream): { chunks: Buffer[]; done: Promise<string> } {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<string>((resolve, reject) => {
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
  return { chunks, done };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DocumentStream', () => {
  it('puts the head before the first byte and the tail after the last, strings and bytes alike', async () => {
    const stream = new DocumentStream('<head>é', '</html>');
    const { done } = collect(stream);
    stream.write('<p>ü');
    stream.write(new TextEncoder().encode('€</p>'));
    stream.flush();
    stream.end();
    expect(await done).toBe('<head>é<p>ü€</p></html>');
  });

  it('sends the pieces of one flush pass as one chunk, and a last pass with the tail', async () => {
    const stream = new DocumentStream('H', 'T');
    const { chunks, done } = collect(stream);
    for (const piece of ['a', 'b', 'c']) stream.write(piece);
    stream.flush();
    await tick();
    expect(chunks.map(String)).toEqual(['Habc']);
    stream.write('d');
    stream.write(new Uint8Array([101]));
    stream.flush();
    stream.end();
    expect(await done).toBe('HabcdeT');
    expect(chunks.map(String)).toEqual(['Habc', 'deT']);
  });

  it('streams: a pass is readable before the end comes', async () => {
    const stream = new DocumentStream('H', 'T');
    const { chunks } = collect(stream);
    stream.write('shell');
    stream.flush();
    await tick();
    expect(Buffer.concat(chunks).toString()).toBe('Hshell');
    expect(stream.writableEnded).toBe(false);
    stream.end();
  });

  it('sends the head and the tail when the body is empty', async () => {
    const stream = new DocumentStream('H', 'T');
    const { done } = collect(stream);
    stream.end();
    expect(await done).toBe('HT');
  });

  it('carries a React stream whole, a suspended part after the shell', async () => {
    let resolve!: (value: string) => void;
    const later = new Promise<string>((r) => (resolve = r));
    const Late = () => createElement('b', null, use(later));
    const tree = createElement('main', null, 'shell', createElement(Suspense, { fallback: 'wait' }, createElement(Late)));
    const stream = new DocumentStream('<!DOCTYPE html><html><body>', '</body></html>');
    const { chunks, done } = collect(stream);
    const react = renderToPipeableStream(tree, { onShellReady: () => react.pipe(stream.destination) });
    await tick();
    const shell = Buffer.concat(chunks).toString();
    expect(shell).toMatch(/^<!DOCTYPE html><html><body><main>shell<!--\$\?-->/);
    expect(shell).not.toContain('</body></html>');
    resolve('late text');
    const html = await done;
    expect(html).toContain('late text');
    expect(html.endsWith('</body></html>')).toBe(true);
  });

  it('ends the document when React aborts a part that never came (the render timeout)', async () => {
    const Never = () => createElement('b', null, use(new Promise<string>(() => undefined)));
    const tree = createElement('main', null, 'shell', createElement(Suspense, { fallback: 'wait' }, createElement(Never)));
    const stream = new DocumentStream('<body>', '</body>');
    const { done } = collect(stream);
    const react = renderToPipeableStream(tree, { onShellReady: () => react.pipe(stream.destination), onError: () => undefined });
    await tick();
    react.abort(new Error('render timed out'));
    const html = await done;
    expect(html).toMatch(/^<body><main>shell<!--\$\?-->/);
    expect(html.endsWith('</body>')).toBe(true);
  });

  it('ignores what comes after the end, and a second end', async () => {
    const stream = new DocumentStream('H', 'T');
    const { done } = collect(stream);
    stream.write('a');
    stream.end();
    stream.write('late');
    stream.flush();
    stream.end();
    expect(await done).toBe('HaT');
  });
});

describe('createNonce', () => {
  it('gives 128-bit base64 nonces that do not repeat across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const nonce = createNonce();
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
      seen.add(nonce);
    }
    expect(seen.size).toBe(1000);
  });
});
