import { isRouteErrorResponse } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isHttpError } from '@tern/shared/errors/errors';
import { navigate, redirectStatus, resolveNavigationTarget, windowFeaturesString } from './navigate.js';

function refusal(to: string, external = false): string {
  try {
    resolveNavigationTarget(to, { external });
  } catch (error) {
    expect(isHttpError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${to} was not refused`);
}

describe('navigate targets', () => {
  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:msgbox',
    'blob:https://x/1',
    '\0javascript:x',
  ])('always refuses %j, even with external: true', (to) => {
    expect(refusal(to, true)).toMatch(/^Cannot navigate to a URL with '(javascript|data|vbscript|blob):' protocol\.$/);
  });

  it.each(['https://example.com/', 'http://example.com', '//example.com/x', '\\\\example.com', 'mailto:a@b.c'])(
    'refuses external %j by default',
    (to) => {
      expect(refusal(to)).toMatch(/^Navigating to an external URL is not allowed by default/);
    },
  );

  it('allows external targets with external: true', () => {
    expect(resolveNavigationTarget('https://example.com/a?b#c', { external: true })).toEqual({
      kind: 'external',
      url: 'https://example.com/a?b#c',
    });
    expect(resolveNavigationTarget('//example.com/x', { external: true })).toEqual({ kind: 'external', url: '//example.com/x' });
  });

  it('keeps internal paths, query and hash; an empty target is the home page', () => {
    expect(resolveNavigationTarget('/category/git?x=1#top')).toEqual({ kind: 'internal', path: '/category/git?x=1#top' });
    expect(resolveNavigationTarget('')).toEqual({ kind: 'internal', path: '/' });
    expect(resolveNavigationTarget(undefined)).toEqual({ kind: 'internal', path: '/' });
    expect(resolveNavigationTarget('login')).toEqual({ kind: 'internal', path: '/login' });
  });

  it('redirects with 302 unless given another redirect status', () => {
    expect(redirectStatus(undefined)).toBe(302);
    expect(redirectStatus(301)).toBe(301);
    expect(redirectStatus(308)).toBe(308);
    expect(redirectStatus(200)).toBe(302);
    expect(redirectStatus(500)).toBe(302);
  });

  it('writes window features as lower-cased pairs', () => {
    expect(windowFeaturesString({ Width: 400, noopener: true, popup: false })).toBe('width=400, noopener=yes, popup=no');
    expect(windowFeaturesString(undefined)).toBeUndefined();
  });
});

describe('navigate on the server', () => {
  async function thrown(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error('navigate did not throw');
  }

  it('throws a 302 redirect Response by default', async () => {
    const response = (await thrown(navigate('/login?redirect=%2F'))) as Response;
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?redirect=%2F');
  });

  it('uses redirectCode', async () => {
    const response = (await thrown(navigate('/login', { redirectCode: 301 }))) as Response;
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/login');
  });

  it('reads /\\host as the other site browsers take it for', async () => {
    const error = await thrown(navigate('/\\evil.example'));
    expect(isHttpError(error) && error.message).toMatch(/external URL is not allowed/);
  });

  it('refuses unsafe targets on the server too', async () => {
    const error = await thrown(navigate('javascript:alert(1)', { external: true }));
    expect(isHttpError(error) && error.statusCode).toBe(400);
    expect(isRouteErrorResponse(error)).toBe(false);
  });
});
