/**
 * The platform knows no site, and a site reaches the platform only through its public modules
 * (docs/decisions/site-on-the-platform.md): ESLint's rule, with the project's own config, on probe
 * files in both places; and no word of the cookbook left in the platform's code.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';

const RULE = '@typescript-eslint/no-restricted-imports';

/** The boundary rule alone (no type information needed), on `code` as if it were the file `path`. */
async function restrictedImports(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: projectRoot,
    overrideConfig: { languageOptions: { parserOptions: { project: false, program: null, projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === RULE,
  });
  const [result] = await eslint.lintText(code, { filePath: join(projectRoot, path) });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('the site boundary, by lint', () => {
  it('refuses a platform module that imports the site', async () => {
    expect(await restrictedImports('services/gateway/src/probe.ts', "import site from '../../../apps/cookbook/src/site.js';\n")).toEqual([
      expect.stringContaining('The platform knows no site'),
    ]);
    expect(await restrictedImports('packages/shared/src/probe.ts', "export { COOKBOOK_ERRORS } from '../../../apps/cookbook/src/error-codes.js';\n")).toHaveLength(1);
    expect(await restrictedImports('packages/runtime/src/probe.ts', "import { COOKBOOK_ERRORS } from 'cookbook/error-codes';\n")).toHaveLength(1);
  });

  it("refuses a site module that imports the platform's internals, or its own server from its app", async () => {
    const internal = "import { buildRendererApp } from '@tern/renderer/app';\n";
    expect(await restrictedImports('apps/cookbook/src/server/probe.ts', internal)).toEqual([expect.stringContaining('@tern/site')]);
    const gateway = "import { createRenderCache } from '@tern/gateway/render-cache';\n";
    expect(await restrictedImports('apps/cookbook/src/app/probe.ts', gateway)).toHaveLength(1);
    // A package's files by path, around its exports map, or the platform's folders by a relative path.
    expect(await restrictedImports('apps/cookbook/src/probe.ts', "import { Icon } from '@tern/ui/src/icon.js';\n")).toHaveLength(1);
    expect(await restrictedImports('apps/cookbook/src/probe.ts', "import { x } from '../../../packages/shared/src/errors/errors.js';\n")).toHaveLength(1);
    expect(await restrictedImports('apps/cookbook/src/app/probe.ts', "import { createAccounts } from '../server/accounts.js';\n")).toEqual([
      expect.stringContaining('its server code stays out'),
    ]);
  });

  it("lets a site use the platform's public modules and lib/", async () => {
    const allowed = [
      "import { defineSiteServer } from '@tern/site/server';",
      "import { navigate } from '@tern/runtime/shared/navigate';",
      "import { Icon } from '@tern/ui/icon';",
      "import { createError } from '@tern/shared/errors/errors';",
    ].join('\n');
    expect(await restrictedImports('apps/cookbook/src/server/probe.ts', `${allowed}\n`)).toEqual([]);
  });
});

/** Production files under `dir` (tests, contracts and fixtures aside), relative to the project. */
async function productionFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(projectRoot, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx|css)$/.test(entry.name))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)))
    .filter((file) => !/(\.test\.tsx?|\.contract\.ts)$|\/(test|fixtures|test-support|dist|node_modules)\//.test(file));
}

async function filesMatching(dirs: string[], word: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs)
    for (const file of await productionFiles(dir)) if (word.test(await readFile(join(projectRoot, file), 'utf8'))) found.push(file);
  return found;
}

describe('no site word in the platform', () => {
  // The services and the packages a site builds on (packages/cli, the old scripts/, was never held to it).
  const PLATFORM = ['services', 'packages/shared', 'packages/runtime', 'packages/ui', 'packages/site', 'packages/vite-plugin'];

  it('names no cookbook and no recipe in the services and the platform packages', async () => {
    expect(await filesMatching(PLATFORM, /cookbook|recipe/i)).toEqual([]);
  });

  it('names no category outside the icon service (Iconify has categories of its own)', async () => {
    const dirs = PLATFORM.filter((dir) => dir !== 'services').concat(['services/gateway', 'services/renderer', 'services/image']);
    expect(await filesMatching(dirs, /categor/i)).toEqual([]);
  });
});
