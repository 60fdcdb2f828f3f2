import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputsKey, recordInputs, upToDate } from './build-inputs.mjs';

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-inputs-'));
  write('content/a.md', 'one');
  write('content/b.md', 'two');
  // A workspace of one package, which the step's script imports by name.
  write('package.json', JSON.stringify({ workspaces: ['packages/shared'] }));
  write('packages/shared/package.json', JSON.stringify({ name: '@tern/shared' }));
  write('scripts/step.ts', "import { helper } from './helper.js';\nimport { config } from '@tern/shared/config/service-config';\n");
  write('scripts/helper.ts', 'export const helper = 1;');
  write('packages/shared/src/config/service-config.ts', 'export const config = 1;');
  write('packages/shared/src/unrelated.ts', 'export const other = 1;');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a build step's key", () => {
  const key = () => inputsKey(root, { files: ['content'], imports: ['scripts/step.ts'], env: ['BUILD_INPUTS_TEST'] });

  it('is the same while nothing it reads changes, tests and unrelated files included', () => {
    const before = key();
    write('content/a.test.ts', 'a test is not an input');
    write('packages/shared/src/unrelated.ts', 'export const other = 2;');
    expect(key()).toBe(before);
  });

  it('changes with a file of a folder it reads, one added, or a source its script imports, however indirectly', () => {
    const changes = [
      () => write('content/a.md', 'one, edited'),
      () => write('content/c.md', 'three'),
      () => write('scripts/helper.ts', 'export const helper = 2;'),
      () => write('packages/shared/src/config/service-config.ts', 'export const config = 2;'),
    ];
    for (const change of changes) {
      const before = key();
      change();
      expect(key()).not.toBe(before);
    }
  });

  it('changes with the environment it names and with the keys it builds on', () => {
    const before = key();
    process.env.BUILD_INPUTS_TEST = 'x';
    try {
      expect(key()).not.toBe(before);
    } finally {
      delete process.env.BUILD_INPUTS_TEST;
    }
    expect(inputsKey(root, { files: ['content'], after: ['a'] })).not.toBe(inputsKey(root, { files: ['content'], after: ['b'] }));
    expect(inputsKey(root, { derived: () => ['lucide:star'] })).not.toBe(inputsKey(root, { derived: () => ['lucide:moon'] }));
  });

  it('counts a missing input as missing', () => {
    expect(inputsKey(root, { files: ['nothing-here'] })).not.toBe(inputsKey(root, { files: [] }));
  });
});

describe('whether a step is up to date', () => {
  it('needs the recorded key and every output', () => {
    const buildDir = join(root, 'dist');
    const output = join(buildDir, 'out.json');
    expect(upToDate(buildDir, 'step', 'k1', [output])).toBe(false);
    recordInputs(buildDir, 'step', 'k1');
    expect(upToDate(buildDir, 'step', 'k1', [output])).toBe(false);
    writeFileSync(output, '{}');
    expect(upToDate(buildDir, 'step', 'k1', [output])).toBe(true);
    expect(upToDate(buildDir, 'step', 'k2', [output])).toBe(false);
    expect(upToDate(buildDir, 'step', 'k1', [output, () => false])).toBe(false);
    expect(upToDate(buildDir, 'step', 'k1', [output, () => true])).toBe(true);
  });
});
