/**
 * An svgo plugin that ipx runs on every SVG it serves: it removes what can run code or reach out
 * (script, foreignObject, embedded documents, event handlers, SMIL rewrites, external references).
 * The response also carries `content-security-policy: default-src 'none'` as a second guard.
 */
import type { CustomPlugin, XastChild, XastParent } from 'svgo';
import { INLINE_SVG_MIMES } from './formats.js';

const DROPPED_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'base',
  'link',
  'meta',
  'handler',
  'listener',
  'set',
  'animate',
  'animatemotion',
  'animatetransform',
  'animatecolor',
  'discard',
  'audio',
  'video',
  'canvas',
]);
// The raster types an SVG may inline are those formats.ts marks `inlineInSvg`.
const INLINE_TYPES = INLINE_SVG_MIMES.map((mime) => mime.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
const SAFE_DATA_URI = new RegExp(`^data:(${INLINE_TYPES});base64,[\\w+/=\\s]*$`, 'i');
const EXTERNAL_URL_IN_CSS = new RegExp(`url\\(\\s*(['"]?)(?!#|data:(${INLINE_TYPES});)[^)]*\\1\\s*\\)`, 'gi');

function detach(node: XastChild, parent: XastParent): void {
  parent.children = parent.children.filter((child) => child !== node);
}

/** Only in-document references (`#id`) and inline raster images survive. */
export function isSafeReference(value: string): boolean {
  const text = value.replace(/[\s\u0000-\u001f]/g, '');
  return text.startsWith('#') || SAFE_DATA_URI.test(text);
}

function cleanCss(css: string): string {
  return css.replace(/@import[^;]*;?/gi, '').replace(EXTERNAL_URL_IN_CSS, 'none');
}

function cleanAttributes(attributes: Record<string, string>): void {
  for (const name of Object.keys(attributes)) {
    const lower = name.toLowerCase();
    const value = attributes[name] ?? '';
    if (lower.startsWith('on')) delete attributes[name];
    else if ((lower === 'href' || lower.endsWith(':href')) && !isSafeReference(value)) delete attributes[name];
    else if (lower === 'style') attributes[name] = cleanCss(value);
    else if (/^\s*(javascript|vbscript|data):/i.test(value) && !SAFE_DATA_URI.test(value.trim())) delete attributes[name];
    else if (/url\(/i.test(value)) attributes[name] = cleanCss(value);
  }
}

export const sanitizeSvgPlugin: CustomPlugin = {
  name: 'sanitizeSvg',
  fn: () => ({
    doctype: { enter: (node, parent) => detach(node, parent) },
    instruction: { enter: (node, parent) => void (node.name === 'xml' ? undefined : detach(node, parent)) },
    element: {
      enter: (node, parent) => {
        if (DROPPED_ELEMENTS.has(node.name.toLowerCase().replace(/^.*:/, ''))) {
          detach(node, parent);
          return;
        }
        cleanAttributes(node.attributes);
        if (node.name === 'style') {
          for (const child of node.children) if (child.type === 'text' || child.type === 'cdata') child.value = cleanCss(child.value);
        }
      },
    },
  }),
};
