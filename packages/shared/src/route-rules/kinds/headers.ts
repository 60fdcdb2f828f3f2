/**
 * `headers`: set on proxied answers below 400 (the build files keep their own cache policy, and a
 * long cache lifetime must never stick to an error). More specific rules add to and replace the
 * headers of less specific ones.
 */
import { RouteRuleError } from '../route-rule-error.js';
import type { RouteRuleKind } from '../kind.js';

const HEADER_NAME = /^[!#$%&'*+.^`|~\w-]+$/;

function normalizeHeaders(pattern: string, headers: unknown): Record<string, string> {
  if (!headers || typeof headers !== 'object') throw new RouteRuleError(pattern, 'headers must be an object');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new RouteRuleError(pattern, `invalid header name ${JSON.stringify(name)}`);
    if (typeof value !== 'string' || /[\r\n\u0000]/.test(value)) {
      throw new RouteRuleError(pattern, `header ${name} needs a single-line string value`);
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}

export const headersKind: RouteRuleKind<Record<string, string>, { headers?: Record<string, string> }> = {
  inputs: ['headers'],
  normalize: (pattern, rule) => (rule.headers === undefined ? undefined : normalizeHeaders(pattern, rule.headers)),
  merge(merged, name, value) {
    merged[name] = { ...(merged[name] as Record<string, string> | undefined), ...value };
  },
  answerHeaders: (value, answer) => (answer.proxied && answer.status < 400 ? Object.entries(value) : []),
};
