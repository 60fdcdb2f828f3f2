/**
 * TRUST_PROXY: whose X-Forwarded-* Fastify believes (its `trustProxy` option, @fastify/proxy-addr).
 * A hop count or the proxies' addresses; a bare `true` would believe any caller, so it is refused.
 */
import { isIP } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { z } from 'zod';

/** How many proxies stand in front (0: none, this service is the edge), or their addresses and ranges. */
export type TrustProxy = number | string[];

/** proxy-addr's named ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const EXPECTED =
  'expected a hop count (0: no proxy in front, 1: one) or a comma-separated list of proxy addresses, ' +
  'CIDRs or loopback/linklocal/uniquelocal; `true` would trust the X-Forwarded-* of any caller';

/** An address, `address/bits`, `ipv4/netmask` or a named range: what proxy-addr compiles. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const kind = isIP(address);
  if (kind === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (kind === 4 && isIP(range) === 4) return true;
  const bits = Number(range);
  return /^\d+$/.test(range) && bits >= 1 && bits <= (kind === 4 ? 32 : 128);
}

/** The TRUST_PROXY setting: unset, `0` or `false` trust nobody. */
export const trustProxy = () =>
  z
    .string()
    .optional()
    .transform((value, ctx): TrustProxy => {
      const text = (value ?? '').trim().toLowerCase();
      if (text === '' || text === 'false') return 0;
      if (/^\d{1,3}$/.test(text)) return Number(text);
      const entries = text.split(',').map((entry) => entry.trim());
      if (entries.every(isProxyAddress)) return entries;
      ctx.addIssue({ code: 'custom', message: EXPECTED });
      return z.NEVER;
    });

/**
 * Fastify's `trustProxy` for a setting. Fastify ignores a bare number (it cannot check the peer),
 * so a hop count is a function of the hop: only reach it from the proxies, or list their addresses.
 */
export function trustProxyOption(setting: TrustProxy): NonNullable<FastifyServerOptions['trustProxy']> {
  if (Array.isArray(setting)) return setting;
  if (setting === 0) return false;
  return function withinHops(_address: string, hop: number) {
    return hop < setting;
  };
}
