/**
 * `npm run lint` fails on an import cycle: dependency-cruiser with the project's own config
 * (.dependency-cruiser.mjs), on two throwaway files that import each other, a value or a type.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-cycles-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The rule names dependency-cruiser reports for the files `files` (name to source) in a fresh folder. */
async function violationsOf(name: string, files: Record<string, string>): Promise<string[]> {
  const folder = join(dir, name);
  await mkdir(folder);
  for (const [file, source] of Object.entries(files)) await writeFile(join(folder, file), source);
  const options = await extractDepcruiseOptions(join(projectRoot, '.dependency-cruiser.mjs'));
  const tsConfig = extractTSConfig(join(projectRoot, 'tsconfig.json'));
  const { output } = await cruise([folder], { ...options, validate: true }, {}, { tsConfig });
  return (output as ICruiseResult).summary.violations.map((violation) => violation.rule.name);
}

describe('import cycles', () => {
  it('fail when two modules import each other', async () => {
    const violations = await violationsOf('values', {
      'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    expect(violations).toContain('no-circular');
  });

  it('fail when the way back is type-only', async () => {
    const violations = await violationsOf('types', {
      'a.ts': "import { b } from './b.js';\nexport interface A { n: number }\nexport const a = b;\n",
      'b.ts': "import type { A } from './a.js';\nexport const b: A = { n: 1 };\n",
    });
    expect(violations).toContain('no-circular');
  });

  it('pass when the shared part is a third file', async () => {
    const violations = await violationsOf('apart', {
      'shared.ts': 'export interface A { n: number }\n',
      'a.ts': "import { b } from './b.js';\nimport type { A } from './shared.js';\nexport const a: A = b;\n",
      'b.ts': "import type { A } from './shared.js';\nexport const b: A = { n: 1 };\n",
    });
    expect(violations).toEqual([]);
  });
});
