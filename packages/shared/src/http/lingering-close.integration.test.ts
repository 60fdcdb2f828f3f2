import { connect, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_MS } from './lingering-close.js';
import { createService } from './service.js';

/** What a client uploading a refused body sees: the answer, then how its connection ended. */
interface Upload {
  answer: string;
  ended: Promise<'closed' | 'reset'>;
  socket: Socket;
}

function upload(port: number, declared: number, first: Buffer): Promise<Upload> {
  return new Promise((resolve, reject) => {
    // Half-open: the server's FIN after its answer must not end the upload, as in a browser.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let resolved = false;
    const ended = new Promise<'closed' | 'reset'>((settle) => {
      socket.on('error', () => settle('reset'));
      socket.on('close', () => settle('closed'));
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (!resolved && answer.includes('\r\n\r\n{') && answer.endsWith('}')) {
        resolved = true;
        resolve({ answer, ended, socket });
      }
    });
    socket.on('error', reject);
    socket.write(
      `POST /echo HTTP/1.1\r\nHost: t\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    socket.write(first);
  });
}

const writeChunk = (socket: Socket, size: number) =>
  new Promise<void>((resolve, reject) => socket.write(Buffer.alloc(size, 0x78), (error) => (error ? reject(error) : resolve())));

describe('lingering close after a refused body', () => {
  const app = createService({ name: 'test', logger: pino({ level: 'silent' }), production: true, bodyLimit: 64 });
  app.post('/echo', async (request) => ({ got: request.body }));
  let port: number;
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('goes on reading the body after the 413 until the client has sent it, then both close cleanly', async () => {
    const { answer, ended, socket } = await upload(port, 300_000, Buffer.alloc(100_000, 0x78));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    // The rest arrives after the answer: a server that had closed would reset the connection here.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writeChunk(socket, 100_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writeChunk(socket, 100_000);
    socket.end();
    expect(await ended).toBe('closed');
  });

  it('gives up on a client that keeps sending after LINGER_MS', { timeout: LINGER_MS + 5000 }, async () => {
    const started = Date.now();
    const { socket, ended } = await upload(port, 1e12, Buffer.alloc(1000, 0x78));
    const sending = setInterval(() => socket.writable && socket.write(Buffer.alloc(1000, 0x78)), 50);
    try {
      await ended;
      expect(Date.now() - started).toBeGreaterThanOrEqual(LINGER_MS - 100);
      expect(Date.now() - started).toBeLessThan(LINGER_MS + 2000);
    } finally {
      clearInterval(sending);
    }
  });
});
