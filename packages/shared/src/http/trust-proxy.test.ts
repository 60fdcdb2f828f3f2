import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '@tern/gateway/config';
import { loadConfig, parseConfig } from '../config/service-config.js';
import { trustProxy, trustProxyOption, type TrustProxy } from './trust-proxy.js';

const parse = (value: string) => parseConfig({ TRUST_PROXY: trustProxy() }, { TRUST_PROXY: value }).TRUST_PROXY;

/** The `request.ip` a Fastify with this setting gives a request from `peer` carrying `forwardedFor`. */
async function ipSeen(setting: TrustProxy, peer: string, forwardedFor: string): Promise<string> {
  const app = Fastify({ trustProxy: trustProxyOption(setting) });
  app.get('/', async (request) => request.ip);
  try {
    const response = await app.inject({ url: '/', remoteAddress: peer, headers: { 'x-forwarded-for': forwardedFor } });
    return response.body;
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY', () => {
  it('refuses a bare true with one line naming the variable and what it expects', () => {
    expect(() => parseGatewayConfig({ TRUST_PROXY: 'true' })).toThrow(
      /^invalid configuration: TRUST_PROXY: expected a hop count .* or a comma-separated list of proxy addresses.* \(got "true"\)$/,
    );
  });

  it('stops the service at start on a bare true, as every config error does', () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const exit = process.exit.bind(process);
    process.stderr.write = ((line: string) => written.push(line) > 0) as typeof process.stderr.write;
    process.exit = ((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit;
    try {
      expect(() => loadConfig('gateway', { TRUST_PROXY: trustProxy() }, { TRUST_PROXY: 'TRUE' })).toThrow('exit 1');
    } finally {
      process.stderr.write = write;
      process.exit = exit;
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^gateway: invalid configuration: TRUST_PROXY: .*\n$/);
  });

  it.each([
    ['', 0],
    ['false', 0],
    ['0', 0],
    ['2', 2],
    ['loopback', ['loopback']],
    [' 10.0.0.0/8, uniquelocal ,::1', ['10.0.0.0/8', 'uniquelocal', '::1']],
    ['192.168.0.0/255.255.0.0,fd00::/8', ['192.168.0.0/255.255.0.0', 'fd00::/8']],
  ])('reads %j as %j', (value, expected) => {
    expect(parse(value)).toEqual(expected);
  });

  it.each(['yes', 'on', '1.5', '-1', 'proxy.example', '10.0.0.0/33', '10.0.0.0/0', '10.0.0.1,', '::1/129'])('refuses %j', (value) => {
    expect(() => parse(value)).toThrow(/TRUST_PROXY: expected a hop count/);
  });

  it('is unset by default: the gateway is the edge and trusts nobody', () => {
    expect(parseGatewayConfig().TRUST_PROXY).toBe(0);
    expect(trustProxyOption(0)).toBe(false);
  });
});

describe('trustProxyOption', () => {
  it('with a hop count of 1 trusts the one proxy in front only: a forged leftmost entry is not the client', async () => {
    expect(await ipSeen(1, '10.0.0.9', '6.6.6.6, 198.51.100.4')).toBe('198.51.100.4');
    expect(await ipSeen(2, '10.0.0.9', '6.6.6.6, 198.51.100.4')).toBe('6.6.6.6');
  });

  it('with no proxy, the peer is the client whatever it claims', async () => {
    expect(await ipSeen(0, '198.51.100.4', '6.6.6.6')).toBe('198.51.100.4');
  });

  it('with an address list trusts only those addresses', async () => {
    const list = parse('10.0.0.0/8,loopback');
    // From a listed proxy: its word is taken, and so is that of a listed proxy before it, up to the first stranger.
    expect(await ipSeen(list, '127.0.0.1', '6.6.6.6, 198.51.100.4, 10.1.2.3')).toBe('198.51.100.4');
    // From a peer not on the list: what it claims is ignored.
    expect(await ipSeen(list, '203.0.113.5', '198.51.100.4')).toBe('203.0.113.5');
  });
});
