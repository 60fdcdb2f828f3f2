/**
 * A Fastify request as the fetch Request React Router's handler takes: the public URL (from the
 * gateway's X-Forwarded headers), the headers, and a signal that fires if the client goes away.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '../../../../lib/errors.js';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

/** `https://host` of the request as the visitor sees it; a malformed host falls back to localhost. */
export function requestOrigin(request: FastifyRequest): string {
  const proto = first(request.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
  const host = first(request.headers['x-forwarded-host']) ?? first(request.headers.host);
  return `${proto}://${host && HOST.test(host) ? host : 'localhost'}`;
}

export function toFetchRequest(request: FastifyRequest, reply: FastifyReply, url = request.url): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  // `//host/x` must stay a path of this site, never another origin.
  const path = url.replace(/^\/+/, '/');
  let target: URL;
  try {
    target = new URL(path, requestOrigin(request));
  } catch {
    throw createError({ statusCode: 400, message: 'Malformed request URL' });
  }
  return new Request(target, {
    method: request.method === 'HEAD' ? 'GET' : request.method,
    headers,
    signal: controller.signal,
  });
}
