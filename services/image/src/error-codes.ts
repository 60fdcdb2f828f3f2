/**
 * The image service's error codes: the request path and modifiers, the sources (local and remote),
 * the image itself, the transform queue and what one address may spend. Every one is answered as JSON (app.ts).
 */
import { defineErrors } from '@tern/shared/errors/error-catalogue';
import { IMAGE_BASE } from '@tern/shared/url-space/images';

export const IMAGE_ERRORS = defineErrors({
  IMAGE_NOT_AN_IMAGE_PATH: { statusCode: 404, message: 'Not an image path' },
  IMAGE_PATH_INCOMPLETE: { statusCode: 400, message: `Modifiers and source are required: ${IMAGE_BASE}/{modifiers}/{source}` },
  IMAGE_SOURCE_MISSING: { statusCode: 400, message: 'The image source is missing' },
  IMAGE_MALFORMED_ENCODING: { statusCode: 400, message: (what: string) => `Malformed percent-encoding in the ${what}` },
  IMAGE_TOO_MANY_MODIFIERS: { statusCode: 400, message: (max: number) => `At most ${max} modifiers` },
  IMAGE_EMPTY_MODIFIER: { statusCode: 400, message: 'Empty modifier' },
  IMAGE_UNKNOWN_MODIFIER: { statusCode: 400, message: (key: string) => `Unknown modifier: ${JSON.stringify(key)}` },
  IMAGE_BAD_MODIFIER_VALUE: {
    statusCode: 400,
    message: (name: string, expected: string, got: string) =>
      `Invalid value for modifier "${name}": expected ${expected}, got ${JSON.stringify(got)}`,
  },
  IMAGE_EXTRACT_OUTSIDE: {
    statusCode: 400,
    message: (width: number, height: number) => `The extract area lies outside the ${width}x${height} image`,
  },
  IMAGE_OUTPUT_TOO_LARGE: {
    statusCode: 400,
    message: (width: number, height: number, max: number) => `The output would be ${width}x${height}; the limit is ${max}x${max}`,
  },
  IMAGE_SOURCE_FORBIDDEN: { statusCode: 403, message: (id: string) => `Forbidden path: ${id}` },
  IMAGE_SOURCE_NOT_FOUND: { statusCode: 404, message: (id: string) => `Image not found: ${id}` },
  IMAGE_SOURCE_TOO_LARGE: { statusCode: 413, message: (maxBytes: number) => `The source is larger than ${maxBytes} bytes` },
  IMAGE_REMOTE_INVALID_URL: { statusCode: 400, message: 'The remote source is not a valid URL' },
  // The policy's own sentence: which rule refused the URL (protocol, credentials, host, address, redirect).
  IMAGE_REMOTE_FORBIDDEN: { statusCode: 403, message: (why: string) => why },
  IMAGE_REMOTE_TOO_MANY_REDIRECTS: { statusCode: 502, message: 'Too many redirects' },
  IMAGE_REMOTE_NOT_FOUND: { statusCode: 404, message: (id: string) => `Remote image not found: ${id}` },
  IMAGE_REMOTE_BAD_STATUS: { statusCode: 502, message: (status: number) => `The remote source answered ${status}` },
  IMAGE_REMOTE_TOO_LARGE: { statusCode: 413, message: (maxBytes: number) => `The remote source is larger than ${maxBytes} bytes` },
  IMAGE_REMOTE_TIMEOUT: { statusCode: 504, message: 'The remote source took too long' },
  IMAGE_REMOTE_UNAVAILABLE: { statusCode: 502, message: 'The remote source could not be fetched' },
  IMAGE_NOT_AN_IMAGE: { statusCode: 415, message: 'The source is not an image' },
  IMAGE_UNREADABLE: { statusCode: 422, message: 'The image is corrupt or cannot be read' },
  IMAGE_NO_SIZE: { statusCode: 422, message: 'The image has no size' },
  IMAGE_TOO_MANY_PIXELS: {
    statusCode: 413,
    message: (pixels?: number, limit?: number) =>
      pixels === undefined ? 'The image has too many pixels' : `The image has ${pixels} pixels; the limit is ${limit}`,
  },
  IMAGE_UNPROCESSABLE: { statusCode: 422, message: 'The image is corrupt or cannot be processed' },
  IMAGE_INVALID_MODIFIER_VALUE: { statusCode: 400, message: (detail: string) => `Invalid modifier value: ${detail}` },
  IMAGE_TRANSFORM_TIMEOUT: { statusCode: 503, message: 'The transform took too long' },
  IMAGE_BUSY: { statusCode: 503, message: 'The image service is busy; try again shortly' },
  // Every asker of a transform left (the client, or the gateway's timeout): nobody reads this answer.
  IMAGE_ABANDONED: { statusCode: 499, statusMessage: 'Client Closed Request', message: 'Nobody waits for this image any more' },
  IMAGE_ADDRESS_BUSY: {
    statusCode: 429,
    message: (max: number) => `At most ${max} new images at once from one address; the cached ones are not limited`,
  },
  IMAGE_ADDRESS_SPENT: {
    statusCode: 429,
    message: 'This address has used its share of new images for now; the cached ones are not limited',
  },
});
