/**
 * The first-load JavaScript budget (issue 15): at most 100 KB (KiB, as served with brotli) on the
 * pages a visitor lands on, counted from the production stack's HTML. Interaction-only code
 * (Radix and floating-ui: menus, tooltips, toasts) must not be among it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_USER_AGENT } from '../support/chromium.js';
import { describeFirstLoadJs, FIRST_LOAD_JS_BUDGET_BYTES, kib, measureFirstLoadJs } from '../../bench/support/first-load-js.js';
import { MIN_COMPRESSED_BYTES } from '@tern/cli/compress-assets';
import { startStack, type Stack } from '../support/stack.js';

const PAGES = ['/', '/category/git', '/login', '/recipes/find-a-regression-with-bisect', '/tags/git', '/search?q=bisect'];

/** Text only Radix's code carries (its CSS variables and data attributes). */
const RADIX_MARKERS = ['--radix-', 'data-radix-'];

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ redis: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe(`first-load JavaScript, at most ${kib(FIRST_LOAD_JS_BUDGET_BYTES)} br`, () => {
  it.each(PAGES)('%s', async (path) => {
    const result = await measureFirstLoadJs(stack.url, path, { 'user-agent': PERSON_USER_AGENT });
    process.stdout.write(`${describeFirstLoadJs(result)}\n`);
    expect(result.scripts.length).toBeGreaterThan(0);
    // Served precompressed with brotli, each one big enough for the build to have compressed it.
    const uncompressed = result.scripts.filter((s) => s.encoding !== 'br' && s.bytes >= MIN_COMPRESSED_BYTES);
    expect(uncompressed.map((s) => s.url)).toEqual([]);
    expect(result.total).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
    const withRadix = result.scripts.filter((s) => RADIX_MARKERS.some((marker) => s.text.includes(marker))).map((s) => s.url);
    expect(withRadix).toEqual([]);
  });
});
