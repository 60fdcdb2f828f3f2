/**
 * The inline payload's text: `toScriptSafeJson` (runtime/shared/payload.ts), except that a
 * `domHtml` value becomes its reference (runtime/shared/dom-html.ts: the document carries that
 * HTML). One native JSON.stringify, told of domHtml values by its replacer, then one scan for what
 * a script must not hold. A walk in JavaScript that wrote each value on its own and remembered the
 * JSON of long strings (from when payloads carried content) cost 6 % of a listing page's render:
 * a payload is now a few KB of short values (docs/decisions/performance.md, stop 44).
 */
import { domHtmlReference, isDomHtml } from '@tern/runtime/shared/dom-html';
import { toScriptSafeJson } from '@tern/runtime/shared/payload';

function referenceForDomHtml(_key: string, value: unknown): unknown {
  return isDomHtml(value) ? domHtmlReference(value) : value;
}

/** Script-safe JSON of `value`, with each domHtml value's reference in its place. */
export function toInlineJson(value: unknown): string {
  return toScriptSafeJson(value, referenceForDomHtml);
}
