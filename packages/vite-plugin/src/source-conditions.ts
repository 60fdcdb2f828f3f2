/**
 * The platform's packages are read from their sources by Vite and Vitest, as tsc reads them: each
 * package's exports map has a `source` condition (its src/*.ts) before `default` (its compiled
 * dist/*.js, which Node takes). The conditions Vite resolves with, `source` first.
 */
import { defaultClientConditions, defaultServerConditions } from 'vite';

export const SOURCE_CONDITION = 'source';
export const clientConditions = [SOURCE_CONDITION, ...defaultClientConditions];
export const serverConditions = [SOURCE_CONDITION, ...defaultServerConditions];
