/** The ids the document template and the browser entry agree on. Browser-safe. */
export const APP_ELEMENT_ID = 'root';
export { PAYLOAD_ELEMENT_ID } from './payload.js';
export { APP_CONFIG_ELEMENT_ID } from './app-config.js';
/** A JSON block `{ entry, preload }`: the modules the production bootstrap loads after the first paint. */
export const PAGE_MODULES_ELEMENT_ID = '__MODULES__';
