import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createService } from './service.js';

// The body limit over raw connections (100 Continue, lingering close): request-guards.integration.test.ts.
describe('compressed request bodies', () => {
  const app = createService({ name: 'test', logger: pino({ level: 'silent' }), production: true });
  app.post('/echo', async (request) => ({ got: request.body }));

  it.each(['gzip', 'br', 'deflate', 'x-unknown', 'gzip, identity'])(
    'refuses Content-Encoding: %s with 415 in the error shape',
    async (encoding) => {
      const response = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding, accept: 'application/json' },
        payload: '{"a":1}',
      });
      expect(response.statusCode).toBe(415);
      expect(response.headers['accept-encoding']).toBe('identity');
      expect(response.json()).toMatchObject({ statusCode: 415, url: '/echo' });
    },
  );

  it('takes identity and a body with no encoding', async () => {
    for (const headers of [{ 'content-encoding': 'identity' }, {}]) {
      const response = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': 'application/json', ...headers },
        payload: '{"a":1}',
      });
      expect(response.statusCode).toBe(200);
    }
  });
});
