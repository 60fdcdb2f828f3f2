import { describe, expect, it } from 'vitest';
import { createError, HttpError, isHttpError, reviveError, toErrorBody, toHttpError } from './errors.js';

/** A second copy of this module, as the SSR bundle and the browser each carry their own. */
const secondCopy = './errors.js?second-copy';
const otherCopy = (await import(/* @vite-ignore */ secondCopy)) as typeof import('./errors.js');

describe('the one error normaliser', () => {
  it('recognises an HttpError made by another copy of the module by its marker, not instanceof', () => {
    const foreign: HttpError = otherCopy.createError({
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
    });
    expect(toErrorBody(error, '/', true).message).toBe('database password is hunter2');
    // One made on purpose keeps its message even as a 5xx.
    expect(toErrorBody(createError({ statusCode: 503, message: 'Try again' }), '/', false).message).toBe('Try again');
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
    const body = toErrorBody(createError({ statusCode: 404, statusMessage: 'Page Not Found: /c/X', fatal: true }), '/c/X', false);
    const revived = reviveError(body);
    expect(isHttpError(revived)).toBe(true);
    expect(revived).toMatchObject({ statusCode: 404, statusMessage: 'Page Not Found: /c/X', fatal: true });
  });
});
