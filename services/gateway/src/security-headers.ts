/** Headers every gateway response carries, whichever upstream (or the gateway) answered. */
import type { AnswerHeaders } from './step.js';
import { visitorProto } from './forwarded.js';

export const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'SAMEORIGIN',
};
export const HSTS = 'max-age=31536000; includeSubDomains';

const SECURITY_ENTRIES = Object.entries(SECURITY_HEADERS);

/** HSTS only when the visitor really came over https (forwarded.ts: a trusted proxy's word or TLS). */
export const securityHeaders: AnswerHeaders = (request, reply) => {
  for (const [name, value] of SECURITY_ENTRIES) {
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
  if (visitorProto(request) === 'https') reply.header('strict-transport-security', HSTS);
  else reply.removeHeader('strict-transport-security');
};
