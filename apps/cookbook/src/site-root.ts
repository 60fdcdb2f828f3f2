/** The cookbook's own folder (apps/cookbook), which holds content/ and public/: one level above src/ and dist/ alike. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const siteRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
