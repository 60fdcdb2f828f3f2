/**
 * `#lib/…` (package.json `imports`) resolved to the sources for Vite and Vitest, as tsc reads them
 * (its `source` condition); Node, running the build, takes dist/node/lib/ by the `default` one.
 */
import { fileURLToPath } from 'node:url';

const LIB = fileURLToPath(new URL('../../shared/src/', import.meta.url));

export const libFromSource = { find: /^#lib\/(.*)\.js$/, replacement: `${LIB}$1.ts` };
