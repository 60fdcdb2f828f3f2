import { describe, expect, it } from 'vitest';
import { createError, HttpError, isHttpError, reviveError, toErrorBody, toHttpError } from './errors.js';

/** A second copy of this module, as the SSR bundle and the browser each carry their own. */
const secondCopy = './errors.js?second-copy';
const otherCopy = (await import(/* @vite-ignore */ secondCopy)) as typeof import('./errors.js');

describe('the one error normaliser', () => {
  it('recognises an HttpError made by another copy of the module by its marker, not instanceof', () => {
    const foreign: HttpError = otherCopy.createError({
      code: 'TEST_NOT_FOUND',
      statusCode: 404,
      statusMessage: 'Page not found: /x',
      data: { path: '/x' },
      fatal: true,
    });
    expect(otherCopy.HttpError).not.toBe(HttpError);
    expect(isHttpError(foreign)).toBe(true);
    expect(toHttpError(foreign)).toBe(foreign);
    expect(createError(foreign)).toBe(foreign);
    expect(toErrorBody(foreign, '/x', false)).toEqual({
      url: '/x',
      statusCode: 404,
      statusMessage: 'Page not found: /x',
      message: 'Page not found: /x',
      code: 'TEST_NOT_FOUND',
      data: { path: '/x' },
      fatal: true,
    });
  });

  it('does not take a look-alike without the marker for an HttpError', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'HttpError', statusCode: 418, statusMessage: 'Teapot' });
    expect(isHttpError(lookalike)).toBe(false);
    expect(isHttpError(null)).toBe(false);
    expect(isHttpError(Object.create(null))).toBe(false);
    expect(toHttpError(lookalike).statusCode).toBe(418);
  });

  it('hides the message and data of an unexpected error in production, not in development', () => {
    const error = Object.assign(new Error('database password is hunter2'), { data: 'secret' });
    expect(toErrorBody(error, '/', false)).toEqual({
      url: '/',
      statusCode: 500,
      statusMessage: 'Internal Server Error',
      message: 'Internal Server Error',
      code: 'HTTP_500',
    });
    expect(toErrorBody(error, '/', true).message).toBe('database password is hunter2');
    // One made on purpose keeps its message even as a 5xx.
    expect(toErrorBody(createError({ code: 'TEST_BUSY', statusCode: 503, message: 'Try again' }), '/', false).message).toBe('Try again');
  });

  it("reads React Router's route errors and errors carrying a status", () => {
    expect(toErrorBody({ status: 405, statusText: 'Method Not Allowed', internal: true, data: '' }, '/', false)).toMatchObject({
      statusCode: 405,
      statusMessage: 'Method Not Allowed',
    });
    expect(toHttpError(Object.assign(new Error('Body too large'), { statusCode: 413 }))).toMatchObject({
      statusCode: 413,
      message: 'Body too large',
    });
    expect(toHttpError({ status: 700 }).statusCode).toBe(500);
    expect(toHttpError('a string').statusCode).toBe(500);
  });

  it('revives a body into an HttpError with the same fields and the fatal flag', () => {
    const body = toErrorBody(
      createError({ code: 'TEST_NOT_FOUND', statusCode: 404, statusMessage: 'Page Not Found: /c/X', fatal: true }),
      '/c/X',
      false,
    );
    const revived = reviveError(body);
    expect(isHttpError(revived)).toBe(true);
    expect(revived).toMatchObject({ statusCode: 404, statusMessage: 'Page Not Found: /c/X', code: 'TEST_NOT_FOUND', fatal: true });
    // A body of an older build, without a code, gets the status's.
    expect(reviveError({ url: '/', statusCode: 410, statusMessage: 'Gone', message: 'Gone' }).code).toBe('HTTP_410');
  });

  it('carries its headers, Retry-After as one header from retryAfterS', () => {
    const error = createError({ code: 'TEST_BUSY', statusCode: 503, retryAfterS: 1.2, headers: { 'X-Why': 'queue' } });
    expect(error.headers).toEqual({ 'retry-after': '2', 'x-why': 'queue' });
    expect(createError({ code: 'TEST_PLAIN', statusCode: 400 }).headers).toEqual({});
  });

  it('gives an error nobody coded HTTP_<status>, never the internal code it carries', () => {
    const fastify = Object.assign(new Error('Unsupported Media Type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    expect(toErrorBody(fastify, '/', false).code).toBe('HTTP_415');
    const internal = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(toErrorBody(internal, '/', true).code).toBe('HTTP_500');
    expect(toErrorBody({ status: 405, statusText: 'Method Not Allowed' }, '/').code).toBe('HTTP_405');
    // A coded 5xx keeps its code even in production: the code was made to be read.
    expect(toErrorBody(createError({ code: 'TEST_BUSY', statusCode: 503 }), '/', false).code).toBe('TEST_BUSY');
  });
});
