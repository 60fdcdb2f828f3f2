import { describe, expect, it } from 'vitest';
import { errorPageTitle, renderStaticErrorPage, toErrorBody } from '@tern/shared/errors/errors';
import { upstreamError } from './upstream-errors.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3001'), { code: 'ECONNREFUSED' });
const slow = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });

describe('upstream errors', () => {
  it('name the upstream and the code in development only', () => {
    expect(toErrorBody(upstreamError('renderer', refused, false), '/x')).toMatchObject({
      statusCode: 502,
      data: { upstream: 'renderer', reason: 'ECONNREFUSED' },
    });
    for (const error of [refused, slow]) {
      const body = toErrorBody(upstreamError('renderer', error, true), '/x');
      expect(JSON.stringify(body)).not.toMatch(/renderer|ECONNREFUSED|UND_ERR|127\.0\.0\.1/);
      expect(body.data).toBeUndefined();
    }
    expect(upstreamError('icons', slow, true).statusCode).toBe(504);
  });

  it('show "Service unavailable, try again" on the page for 502, 503 and 504, SPEC headlines otherwise', () => {
    for (const status of [502, 503, 504]) {
      expect(errorPageTitle(status)).toBe('Service unavailable, try again');
      expect(renderStaticErrorPage({ url: '/', statusCode: status, statusMessage: 'x', message: 'x', code: 'HTTP_502' })).toContain(
        'Service unavailable, try again',
      );
    }
    expect([errorPageTitle(404), errorPageTitle(500), errorPageTitle(400)]).toEqual([
      'Page Not Found',
      'Internal Server Error',
      'Internal Server Error',
    ]);
  });
});
