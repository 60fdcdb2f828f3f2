/**
 * Error codes a client, a test and an operator can rely on: every catalogue's codes are unique
 * across the project, well formed and prefixed by their service; production code builds every
 * error from a catalogue (tsc requires a code, this keeps it a catalogued one); and Retry-After is
 * set one way, by the error (packages/shared/src/errors/errors.ts `retryAfterS`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIB_ERRORS } from '@tern/shared/errors/error-codes';
import { projectRoot } from '@tern/shared/config/paths';
import { GATEWAY_ERRORS } from '@tern/gateway/error-codes';
import { ICONS_ERRORS } from '@tern/icons/error-codes';
import { IMAGE_ERRORS } from '@tern/image/error-codes';
import { RENDERER_ERRORS } from '@tern/runtime/error-codes';
import { RENDERER_SERVER_ERRORS } from '@tern/renderer/error-codes';
import { COOKBOOK_ERRORS } from 'cookbook/error-codes';
import { COOKBOOK_SERVER_ERRORS } from 'cookbook/server/error-codes';
import { SEARCH_ERRORS } from 'cookbook/app/search/error-codes';

type Maker = { code: string; statusCode: number };

/** What a code looks like, in every catalogue. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]+$/;

const CATALOGUES: Array<[prefix: string, catalogue: Record<string, Maker>]> = [
  ['LIB_', LIB_ERRORS],
  ['GW_', GATEWAY_ERRORS],
  ['RENDERER_', RENDERER_ERRORS],
  ['RENDERER_', RENDERER_SERVER_ERRORS],
  ['IMAGE_', IMAGE_ERRORS],
  ['ICONS_', ICONS_ERRORS],
  // The site on the platform: its own prefix, and the same rules.
  ['COOKBOOK_', COOKBOOK_ERRORS],
  ['COOKBOOK_', COOKBOOK_SERVER_ERRORS],
  ['COOKBOOK_', SEARCH_ERRORS],
];

const PRODUCTION_ROOTS = ['packages', 'services', 'apps', 'bench'];
const NOT_PRODUCTION = /(\.test\.tsx?|\.contract\.ts|\.d\.ts)$|\/(test|test-support|node_modules|dist)\//;

/** The TypeScript files of production code, relative to the project root. */
async function productionFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const root of PRODUCTION_ROOTS) {
    const entries = await readdir(join(projectRoot, root), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      const path = relative(projectRoot, join(entry.parentPath, entry.name));
      if (entry.isFile() && /\.tsx?$/.test(entry.name) && !NOT_PRODUCTION.test(`/${path}`)) files.push(path);
    }
  }
  return files;
}

/** A file's code without its comments, which may show a call by way of example. */
async function codeOf(file: string): Promise<string> {
  const source = await readFile(join(projectRoot, file), 'utf8');
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** The argument text of each `createError(...)` call in `source` (parentheses balanced). */
function createErrorArguments(source: string): string[] {
  const calls: string[] = [];
  for (const match of source.matchAll(/\bcreateError\(/g)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let end = start;
    while (end < source.length && depth > 0) {
      if (source[end] === '(') depth++;
      else if (source[end] === ')') depth--;
      end++;
    }
    calls.push(source.slice(start, end - 1));
  }
  return calls;
}

describe('error codes', () => {
  it('are well formed, prefixed by their catalogue, and unique across the project', () => {
    const seen = new Map<string, string>();
    for (const [prefix, catalogue] of CATALOGUES) {
      for (const [key, maker] of Object.entries(catalogue)) {
        expect(key).toMatch(ERROR_CODE);
        expect(key.startsWith(prefix), `${key} is not ${prefix}*`).toBe(true);
        expect(maker.code).toBe(key);
        expect(maker.statusCode >= 400 && maker.statusCode <= 599, `${key}: ${maker.statusCode}`).toBe(true);
        expect(seen.get(key), `${key} is in two catalogues`).toBeUndefined();
        seen.set(key, prefix);
      }
    }
    expect(seen.size).toBeGreaterThan(60);
  });

  it('stamp their code and status on the init they make', () => {
    expect(GATEWAY_ERRORS.GW_BUILD_META_NOT_FOUND('b1')).toEqual({
      code: 'GW_BUILD_META_NOT_FOUND',
      statusCode: 404,
      message: 'No build meta for "b1"',
    });
    expect(LIB_ERRORS.LIB_ROUTE_NOT_FOUND('/x')).toEqual({
      code: 'LIB_ROUTE_NOT_FOUND',
      statusCode: 404,
      statusMessage: 'Page not found: /x',
    });
  });

  it('are where production code takes every error from: a catalogue, never a code written inline', async () => {
    const uncatalogued: string[] = [];
    for (const file of await productionFiles()) {
      if (file === 'packages/shared/src/errors/errors.ts') continue;
      const source = await codeOf(file);
      const calls = createErrorArguments(source);
      if (calls.length > 0 && !/from '[^']*[/]error-codes(\.js)?'/.test(source)) uncatalogued.push(`${file} makes errors without a catalogue`);
      for (const argument of calls) if (/\bcode\s*:/.test(argument)) uncatalogued.push(`${file}: createError(${argument})`);
      if (/\bnew HttpError\(/.test(source)) uncatalogued.push(`${file} builds an HttpError itself`);
    }
    expect(uncatalogued).toEqual([]);
  });

  it('leave Retry-After to the error that carries it: no production code sets the header by hand', async () => {
    const byHand: string[] = [];
    for (const file of await productionFiles()) {
      const source = await codeOf(file);
      if (/['"]retry-after['"]/i.test(source) && file !== 'packages/shared/src/errors/errors.ts') byHand.push(file);
    }
    expect(byHand).toEqual([]);
  });
});
