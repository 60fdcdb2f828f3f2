/**
 * Remote sources: http(s) only, hosts from the allowlist only, redirects only to the same host, the
 * connect-time address check of pinned-lookup, a time limit and a size cap.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { createError, isHttpError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';
import { ForbiddenAddressError, isAllowedAddress, pinnedLookup, type AddressPolicy } from './pinned-lookup.js';
import type { LoadedSource } from './source.js';

export interface RemoteOptions extends AddressPolicy {
  domains: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export interface RemoteFetcher {
  /** Throws 403 unless the URL's host is on the allowlist. */
  check(url: string): URL;
  fetch(url: string): Promise<LoadedSource>;
  close(): Promise<void>;
}

const forbidden = (message: string) => createError(IMAGE_ERRORS.IMAGE_REMOTE_FORBIDDEN(message));

export function createRemoteFetcher(options: RemoteOptions): RemoteFetcher {
  const domains = new Set(options.domains.map((d) => d.toLowerCase()));
  const agent = new Agent({ connect: { lookup: pinnedLookup(options), timeout: options.timeoutMs } });

  function check(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw createError(IMAGE_ERRORS.IMAGE_REMOTE_INVALID_URL());
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw forbidden('Only http and https sources are allowed');
    if (url.username || url.password) throw forbidden('Credentials in source URLs are not allowed');
    if (!domains.has(url.hostname) && !domains.has(url.host)) throw forbidden(`Host not allowed: ${url.hostname}`);
    // An IP literal never reaches the lookup, so it is checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !isAllowedAddress(literal, options)) throw forbidden(`Address not allowed: ${literal}`);
    return url;
  }

  async function fetchSource(raw: string): Promise<LoadedSource> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let url = check(raw);
    try {
      for (let hop = 0; ; hop++) {
        const response = await request(url, { dispatcher: agent, signal, headers: { accept: 'image/*' } });
        if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
          await response.body.dump();
          if (hop >= options.maxRedirects) throw createError(IMAGE_ERRORS.IMAGE_REMOTE_TOO_MANY_REDIRECTS());
          const next = check(new URL(String(response.headers.location), url).toString());
          if (next.host !== url.host) throw forbidden(`Redirect to another host refused: ${next.host}`);
          url = next;
          continue;
        }
        return await readResponse(raw, response, options.maxBytes);
      }
    } catch (error) {
      throw mapFetchError(error, signal);
    }
  }

  return { check, fetch: fetchSource, close: () => agent.close() };
}

async function readResponse(id: string, response: Dispatcher.ResponseData, maxBytes: number): Promise<LoadedSource> {
  if (response.statusCode === 404 || response.statusCode === 410) {
    await response.body.dump();
    throw createError(IMAGE_ERRORS.IMAGE_REMOTE_NOT_FOUND(id));
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw createError(IMAGE_ERRORS.IMAGE_REMOTE_BAD_STATUS(response.statusCode));
  }
  const length = Number(response.headers['content-length']);
  if (length > maxBytes) {
    response.body.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      response.body.destroy();
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  const data = Buffer.concat(chunks);
  const etag = header(response, 'etag');
  const lastModified = header(response, 'last-modified');
  const mtime = lastModified ? new Date(lastModified) : undefined;
  return {
    id,
    data,
    // The upstream's validator names this version; without one, the bytes do.
    identity: etag ?? (lastModified ? `lm:${lastModified}` : createHash('sha256').update(data).digest('base64url')),
    mtime: mtime && !Number.isNaN(mtime.getTime()) ? mtime : undefined,
  };
}

function header(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const tooLarge = (maxBytes: number) => createError(IMAGE_ERRORS.IMAGE_REMOTE_TOO_LARGE(maxBytes));

function mapFetchError(error: unknown, signal: AbortSignal): unknown {
  if (isHttpError(error)) return error;
  let cause: unknown = error;
  for (let i = 0; i < 4 && cause; i++) {
    if (cause instanceof ForbiddenAddressError) return forbidden(cause.message);
    cause = (cause as { cause?: unknown }).cause;
  }
  if (signal.aborted) return createError(IMAGE_ERRORS.IMAGE_REMOTE_TIMEOUT());
  return createError(IMAGE_ERRORS.IMAGE_REMOTE_UNAVAILABLE());
}
