import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { metaOf, startGateway } from './test-support/upstreams.js';

// Bodies over raw connections (100 Continue, broken framing, abandoned uploads): proxy-bodies.integration.test.ts.
describe('compressed request bodies at the gateway', () => {
  it('refuses a gzip body with 415 instead of decoding it and forwarding the old length (502)', async () => {
    const gateway = await startGateway({ RENDER_CACHE: 'false' }, metaOf('p2', {}));
    try {
      const response = await gateway.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync('{"email":"a@b.c","password":"x"}'),
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ statusCode: 415, url: '/api/auth/login' });
    } finally {
      await gateway.cleanup();
    }
  });
});
