/**
 * esbuild compiles the files tsc would emit (packages/cli/src/server-sources.mjs), so dist/node keeps the
 * layout the Dockerfile, the tests and package.json's scripts rely on.
 */
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { serverSources } from './server-sources.mjs';

it('lists exactly the files `tsc -p tsconfig.json` compiles', () => {
  const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFilesOnly'], { cwd: projectRoot, encoding: 'utf8' });
  expect(result.status).toBe(0);
  const tscFiles = result.stdout
    .split('\n')
    // Declaration files (the .d.mts beside the build scripts) are read, never emitted.
    .filter((line) => line && !line.includes('/node_modules/') && !/\.d\.m?ts$/.test(line))
    .map((file) => relative(projectRoot, file))
    .sort();
  expect(serverSources(projectRoot)).toEqual(tscFiles);
}, 60_000);
