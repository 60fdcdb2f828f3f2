/**
 * Whose request it is, for what one address may spend. The image service's only caller is the
 * gateway, which writes X-Forwarded-For itself (services/gateway/src/forwarded.ts: the visitor
 * first, then only the proxies TRUST_PROXY names), so the service's Fastify believes it, as the
 * renderer's does: `request.ip` is the visitor's address.
 */
import { isIP } from 'node:net';

/** The image service's `trustProxy`: the gateway and the chain it sends. */
export function trustTheGateway(): boolean {
  return true;
}

/**
 * The key an address spends under: an IPv4 address (also when mapped into IPv6) as it is, an IPv6
 * address by its /64, which one subscriber usually holds whole (RFC 6177), so its 2^64 addresses
 * share one budget.
 */
export function spendingKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  // A trailing dotted IPv4 part (`64:ff9b::1.2.3.4`) stands for two groups.
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const groups = address.includes('::') ? [...front, ...Array<string>(8 - width(front) - width(back)).fill('0'), ...back] : front;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
