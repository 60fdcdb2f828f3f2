/**
 * modifier-rules.ts checks each modifier's value before ipx sees it, so it lists ipx's modifiers
 * again; ipx does not export its handler table. This test reads the table from the installed ipx
 * and fails when the two lists differ, so an ipx upgrade that adds, renames or drops a modifier is
 * noticed here instead of as a 400 (or a modifier passed on unchecked) in production.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptedModifierKeys, PIPELINE_MODIFIERS } from './modifier-rules.js';

/** The keys of `const Handlers = { get name () {…}, … }` in ipx's bundled ES module. */
async function ipxHandlerNames(): Promise<string[]> {
  const dist = dirname(createRequire(import.meta.url).resolve('ipx'));
  const shared = join(dist, 'shared');
  for (const file of (await readdir(shared)).filter((name) => name.endsWith('.mjs'))) {
    const source = await readFile(join(shared, file), 'utf8');
    const table = /const Handlers = \{([\s\S]*?)\n\};/.exec(source)?.[1];
    if (table !== undefined) return [...table.matchAll(/get (\w+) \(\)/g)].map((match) => match[1]!);
  }
  throw new Error(`no Handlers table in ${shared}: ipx's bundle changed shape, read its modifier table again`);
}

describe("ipx's modifier table", () => {
  it('has exactly the modifiers and aliases modifier-rules.ts accepts (format and animated are read by the pipeline)', async () => {
    const ipx = await ipxHandlerNames();
    expect(ipx.length).toBeGreaterThan(20);
    const pipeline: readonly string[] = PIPELINE_MODIFIERS;
    const ours = acceptedModifierKeys().filter((key) => !pipeline.includes(key));
    expect([...ours].sort()).toEqual([...ipx].sort());
  });
});
