#!/usr/bin/env node
// The whole build, in order. Each step is an npm script so it can also run alone.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceStamp } from './source-stamp.mjs';

const steps = [
  ['compile server code', 'build:node'],
  ['build content', 'build:content', 'services/renderer/src/content/build-content.ts'],
  ['build renderer', 'build:renderer', 'services/renderer/vite.config.ts'],
  ['write build meta', 'build:meta', 'scripts/write-build-meta.ts'],
];

for (const [label, script, source] of steps) {
  // TEMPORARY while the services are being written in parallel: remove before release.
  if (source && !existsSync(source)) {
    process.stdout.write(`build: skipping ${label} (${source} not written yet)\n`);
    continue;
  }
  const started = Date.now();
  process.stdout.write(`build: ${label}...\n`);
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', shell: false });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed (npm run ${script})\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`build: ${label} done in ${Date.now() - started} ms\n`);
}
writeFileSync(join('dist', '.source-stamp'), sourceStamp());
