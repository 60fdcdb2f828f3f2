import { describe, expect, it } from 'vitest';
import { isHttpError } from '@tern/shared/errors/errors';
import {
  resolveMiddleware,
  runMiddleware,
  type MiddlewareContext,
  type MiddlewareRegistry,
  type RouteMiddleware,
} from './middleware.js';

const to = { fullPath: '/category/git?x=1', path: '/category/git', params: { id: 'git' } };
const context: MiddlewareContext = { side: 'client', request: new Request('http://x/category/git?x=1') };

async function outcome(list: RouteMiddleware[]): Promise<unknown> {
  try {
    await runMiddleware(list, to, context);
    return 'passed';
  } catch (error) {
    return error;
  }
}

describe('middleware resolution', () => {
  const calls: string[] = [];
  const named =
    (name: string): RouteMiddleware =>
    () =>
      void calls.push(name);
  const globalOne = named('global');
  const registry: MiddlewareRegistry = { global: [globalOne], named: { auth: named('auth'), audit: named('audit') } };

  it('runs global ones first, then the page list in order (names and inline functions)', async () => {
    calls.length = 0;
    const inline = named('inline');
    await runMiddleware(resolveMiddleware(registry, ['audit', inline, 'auth']), to, context);
    expect(calls).toEqual(['global', 'audit', 'inline', 'auth']);
  });

  it('accepts a single name or none, and never runs one twice', () => {
    expect(resolveMiddleware(registry, 'auth')).toHaveLength(2);
    expect(resolveMiddleware(registry, undefined)).toEqual([globalOne]);
    expect(resolveMiddleware(registry, ['auth', 'auth'])).toHaveLength(2);
  });

  it("raises 'Unknown route middleware: {name}' for a name missing from the registry", () => {
    expect(() => resolveMiddleware(registry, ['auth', 'nope'])).toThrow('Unknown route middleware: nope');
    // Object's own properties are not middleware.
    expect(() => resolveMiddleware(registry, 'toString')).toThrow('Unknown route middleware: toString');
  });
});

describe('middleware results', () => {
  it('continues on nothing or true', async () => {
    expect(await outcome([() => undefined, () => true])).toBe('passed');
  });

  it('stops at the first redirect, keeping the later ones from running', async () => {
    let later = false;
    const result = (await outcome([() => '/login?redirect=%2Fcategory%2Fgit', () => void (later = true)])) as Response;
    expect(result).toBeInstanceOf(Response);
    expect(result.status).toBe(302);
    expect(result.headers.get('location')).toBe('/login?redirect=%2Fcategory%2Fgit');
    expect(later).toBe(false);
  });

  it('redirects with the given status', async () => {
    const result = (await outcome([() => ({ to: '/', statusCode: 307 })])) as Response;
    expect(result.status).toBe(307);
  });

  it('refuses a redirect to another site or an unsafe protocol', async () => {
    for (const target of ['https://evil.example/', '//evil.example', 'javascript:alert(1)']) {
      const error = await outcome([() => target]);
      expect(isHttpError(error) && error.statusCode).toBe(400);
    }
  });

  it('false aborts with a 404 Page Not Found for the path', async () => {
    const error = await outcome([() => false]);
    expect(isHttpError(error) && [error.statusCode, error.statusMessage]).toEqual([404, 'Page Not Found: /category/git?x=1']);
  });

  it('an Error answered or thrown becomes the error shown', async () => {
    const answered = await outcome([() => new Error('nope')]);
    expect(isHttpError(answered) && [answered.statusCode, answered.message]).toEqual([500, 'nope']);
    const thrown = await outcome([
      () => {
        throw Object.assign(new Error('forbidden'), { name: 'HttpError', statusCode: 403, statusMessage: 'Forbidden' });
      },
    ]);
    expect((thrown as { statusCode: number }).statusCode).toBe(403);
  });
});
