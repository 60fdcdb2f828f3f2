import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

const CLAIMS = {
  host: 'site.example',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-for': '6.6.6.6',
  forwarded: 'for=6.6.6.6;proto=https;host=evil.example',
  'x-real-ip': '6.6.6.6',
  'x-forwarded-port': '443',
  'x-original-url': '/admin',
};

let renderer: Upstream;
const gateways: TestGateway[] = [];
beforeAll(async () => {
  renderer = await startUpstream('renderer');
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.cleanup();
  await renderer.app.close();
});

/** A gateway with this TRUST_PROXY (unset when undefined) in front of the recording renderer. */
async function gatewayTrusting(trustProxy: string | undefined): Promise<TestGateway> {
  const env = { RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url, RENDER_CACHE: 'false' };
  const gateway = await startGateway(trustProxy === undefined ? env : { ...env, TRUST_PROXY: trustProxy }, metaOf('f1', {}));
  gateways.push(gateway);
  return gateway;
}

let sent = 0;
/** Sends `headers` from `peer` through the gateway; the answer and the headers the renderer got. */
async function through(gateway: TestGateway, headers: Record<string, string>, peer = '127.0.0.1') {
  const url = `/claims-${++sent}`;
  const response = await gateway.app.inject({ url, headers, remoteAddress: peer });
  return { response, upstream: renderer.seen.find((s) => s.url === url)!.headers };
}

function expectClaimsDropped(upstream: Record<string, unknown>): void {
  for (const name of ['forwarded', 'x-real-ip', 'x-forwarded-port', 'x-original-url']) expect(upstream[name], name).toBeUndefined();
}

describe('TRUST_PROXY unset: the gateway is the edge', () => {
  it('changes nothing a client claims', async () => {
    const { response, upstream } = await through(await gatewayTrusting(undefined), CLAIMS);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect([upstream['x-forwarded-proto'], upstream['x-forwarded-host'], upstream['x-forwarded-for']]).toEqual([
      'http',
      'site.example',
      '127.0.0.1',
    ]);
    expectClaimsDropped(upstream);
  });
});

describe('TRUST_PROXY=1: one proxy in front', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await gatewayTrusting('1');
  });

  it('follows the proxy in front: https, its host, its chain extended', async () => {
    const { response, upstream } = await through(gateway, CLAIMS);
    expect(response.headers['strict-transport-security']).toContain('max-age=');
    expect([upstream['x-forwarded-proto'], upstream['x-forwarded-host'], upstream['x-forwarded-for']]).toEqual([
      'https',
      'evil.example',
      '6.6.6.6, 127.0.0.1',
    ]);
    expect(upstream.forwarded).toBe(CLAIMS.forwarded);
  });

  it('does not take a forged leftmost X-Forwarded-For entry for the visitor', async () => {
    const { upstream } = await through(gateway, { 'x-forwarded-for': '1.1.1.1, 198.51.100.4' });
    expect(upstream['x-forwarded-for']).toBe('198.51.100.4, 127.0.0.1');
  });
});

describe('TRUST_PROXY as addresses: only those proxies', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await gatewayTrusting('10.0.0.0/8, loopback');
  });

  it('extends the chain through listed proxies up to the first address not listed', async () => {
    const { upstream } = await through(gateway, { ...CLAIMS, 'x-forwarded-for': '1.1.1.1, 198.51.100.4, 10.1.2.3' });
    expect([upstream['x-forwarded-proto'], upstream['x-forwarded-host'], upstream['x-forwarded-for']]).toEqual([
      'https',
      'evil.example',
      '198.51.100.4, 10.1.2.3, 127.0.0.1',
    ]);
  });

  it('changes nothing a caller not on the list claims', async () => {
    const { response, upstream } = await through(gateway, CLAIMS, '203.0.113.5');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect([upstream['x-forwarded-proto'], upstream['x-forwarded-host'], upstream['x-forwarded-for']]).toEqual([
      'http',
      'site.example',
      '203.0.113.5',
    ]);
    expectClaimsDropped(upstream);
  });
});
