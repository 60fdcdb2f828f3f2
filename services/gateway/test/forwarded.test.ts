import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './upstreams.js';

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

describe.each([false, true])('forwarding headers with TRUST_PROXY=%s', (trusted) => {
  let renderer: Upstream, gateway: TestGateway;
  beforeAll(async () => {
    renderer = await startUpstream('renderer');
    gateway = await startGateway(
      { RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url, TRUST_PROXY: String(trusted), RENDER_CACHE: 'false' },
      metaOf('f1', {}),
    );
  });
  afterAll(async () => {
    await gateway.cleanup();
    await renderer.app.close();
  });

  it(trusted ? 'follow the proxy in front: https, its host, its chain' : 'change nothing a client claims', async () => {
    const url = `/claims-${String(trusted)}`;
    const response = await gateway.app.inject({ url, headers: CLAIMS });
    const sent = renderer.seen.find((s) => s.url === url)!.headers;
    if (trusted) {
      expect(response.headers['strict-transport-security']).toContain('max-age=');
      expect([sent['x-forwarded-proto'], sent['x-forwarded-host'], sent['x-forwarded-for']]).toEqual([
        'https',
        'evil.example',
        '6.6.6.6, 127.0.0.1',
      ]);
      expect(sent.forwarded).toBe(CLAIMS.forwarded);
    } else {
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect([sent['x-forwarded-proto'], sent['x-forwarded-host'], sent['x-forwarded-for']]).toEqual(['http', 'site.example', '127.0.0.1']);
      for (const name of ['forwarded', 'x-real-ip', 'x-forwarded-port', 'x-original-url']) expect(sent[name], name).toBeUndefined();
    }
  });
});
