/**
 * HTTP/1.1 over a plain socket, for requests no HTTP client would send (bad request lines, CRLF
 * in headers, obs-fold, lying Content-Length): the bytes go out as given, and the answer is read
 * back with its status, headers, body and whether the server closed the connection.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when nothing parseable came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Interim answers (100 Continue) before the final one. */
  interim: number[];
  /** The server ended the connection after the answer (within `closeWaitMs`). */
  closed: boolean;
  raw: string;
}

export interface RawOptions {
  /** How long to wait for the server to close after a complete answer. */
  closeWaitMs?: number;
  /** Give up on an answer after this long. */
  timeoutMs?: number;
  /** Sent after the first part once `100 Continue` arrives (or after `continueWaitMs`). */
  afterContinue?: string | Buffer;
  continueWaitMs?: number;
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
  complete: boolean;
  interim: number[];
}

function decodeChunked(text: string): { body: string; complete: boolean } {
  let body = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return { body, complete: false };
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) return { body, complete: false };
    if (size === 0) return { body, complete: text.indexOf('\r\n\r\n', lineEnd - 2) >= 0 || text.endsWith('\r\n\r\n') };
    const start = lineEnd + 2;
    if (text.length < start + size + 2) return { body, complete: false };
    body += text.slice(start, start + size);
    at = start + size + 2;
  }
}

/** Parses what arrived so far (latin1 text); `complete` once the final answer is whole. */
export function parseRawAnswer(raw: string, headRequest = false): Parsed {
  const interim: number[] = [];
  let rest = raw;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return { status: 0, headers: {}, body: '', complete: false, interim };
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const after = rest.slice(headEnd + 4);
    if (status >= 100 && status < 200) {
      interim.push(status);
      rest = after;
      continue;
    }
    if (headRequest || status === 204 || status === 304) return { status, headers, body: '', complete: true, interim };
    if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const { body, complete } = decodeChunked(after);
      return { status, headers, body, complete, interim };
    }
    const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
    if (length === null) return { status, headers, body: after, complete: false, interim };
    return { status, headers, body: after.slice(0, length), complete: Buffer.byteLength(after, 'latin1') >= length, interim };
  }
}

/** Sends `request` as is and reads the answer; never rejects (a reset is an answer with status 0). */
export function rawRequest(port: number, request: string | Buffer, options: RawOptions = {}): Promise<RawAnswer> {
  const { closeWaitMs = 300, timeoutMs = 5000, continueWaitMs = 1000 } = options;
  const headRequest = /^HEAD /.test(request.toString('latin1', 0, 5));
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    let done = false;
    let closeTimer: NodeJS.Timeout | undefined;
    let continueSent = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(overall);
      clearTimeout(closeTimer);
      clearTimeout(continueTimer);
      socket.destroy();
      const parsed = parseRawAnswer(raw, headRequest);
      resolve({ status: parsed.status, headers: parsed.headers, body: parsed.body, interim: parsed.interim, closed, raw });
    };
    const sendRest = () => {
      if (continueSent || !options.afterContinue || socket.destroyed) return;
      continueSent = true;
      socket.write(options.afterContinue);
    };
    const overall = setTimeout(() => finish(false), timeoutMs);
    const continueTimer = options.afterContinue ? setTimeout(sendRest, continueWaitMs) : undefined;
    socket.on('data', (chunk) => {
      raw += chunk.toString('latin1');
      const parsed = parseRawAnswer(raw, headRequest);
      if (parsed.interim.includes(100)) sendRest();
      if (parsed.complete && !closeTimer) closeTimer = setTimeout(() => finish(false), closeWaitMs);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(request);
  });
}
