/**
 * The gateway's error codes: an upstream that failed (one per transport reason, transport-errors.ts)
 * and the build files it serves. In production an upstream error names no upstream, so its message
 * maker takes the upstream only for development answers.
 */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

const tooSlow = (upstream?: string) =>
  upstream ? `The ${upstream} service did not answer in time` : 'The service did not answer in time, try again';
const unavailable = (upstream?: string) => (upstream ? `The ${upstream} service is unavailable` : 'The service is unavailable, try again');

export const GATEWAY_ERRORS = defineErrors({
  GW_UPSTREAM_TIMEOUT: { statusCode: 504, message: tooSlow },
  GW_UPSTREAM_REFUSED: { statusCode: 502, message: unavailable },
  GW_UPSTREAM_UNREACHABLE: { statusCode: 502, message: unavailable },
  GW_UPSTREAM_RESET: { statusCode: 502, message: unavailable },
  GW_UPSTREAM_ABORTED: { statusCode: 502, message: unavailable },
  GW_UPSTREAM_FAILED: { statusCode: 502, message: unavailable },
  GW_STARTING: { statusCode: 503, message: 'The site is starting; try again in a moment' },
  GW_BUILD_NOT_PUBLISHED: { statusCode: 503, message: 'No build has been published yet' },
  GW_BUILD_STORE_UNREACHABLE: { statusCode: 503, message: 'The build store is unreachable' },
  GW_BUILD_META_NOT_FOUND: { statusCode: 404, message: (id: string) => `No build meta for ${JSON.stringify(id)}` },
});
