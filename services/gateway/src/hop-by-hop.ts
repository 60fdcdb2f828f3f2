/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: a proxy drops
 * them both ways. Copying an upstream's `connection: keep-alive` into the answer would override
 * Node's own decision, so a client's `Connection: close` would leave its socket open.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

const NO_TOKENS: readonly string[] = [];

/** The header names the Connection header lists (lower case). */
export function connectionTokens(value: string | string[] | number | undefined): readonly string[] {
  // Most messages name none: every proxied page asks this twice, once each way.
  if (value === undefined) return NO_TOKENS;
  const text = Array.isArray(value) ? value.join(',') : String(value ?? '');
  return text
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
}

export function isHopByHop(name: string, listed: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return HOP_BY_HOP.has(lower) || lower.startsWith('proxy-') || listed.includes(lower);
}

/**
 * A copy of `headers` without the hop-by-hop ones, those the Connection header names included,
 * nor those `alsoDrop` names: left out as it copies, since deleting from the copy afterwards
 * turns it into a slower dictionary object for everything that reads it next.
 */
export function withoutHopByHop<T extends IncomingHttpHeaders | OutgoingHttpHeaders>(headers: T, alsoDrop?: (name: string) => boolean): T {
  const listed = connectionTokens(headers.connection);
  const out = {} as Record<string, unknown>;
  for (const name in headers) {
    if (!isHopByHop(name, listed) && !alsoDrop?.(name)) out[name] = headers[name];
  }
  return out as T;
}

/** The client asked for its connection to end after this answer. */
export function wantsClose(headers: IncomingHttpHeaders): boolean {
  return connectionTokens(headers.connection).includes('close');
}
