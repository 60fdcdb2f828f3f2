#!/usr/bin/env node
// The whole build, in order. Each step is an npm script so it can also run alone.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceStamp } from './source-stamp.mjs';

const steps = [
  ['compile server code', 'build:node'],
  ['index icon sets', 'build:icons'],
  ['build content', 'build:content'],
  ['build renderer', 'build:renderer'],
  ['compress assets', 'build:compress'],
  ['write build meta', 'build:meta'],
  ['prerender pages', 'build:prerender'],
];

for (const [label, script] of steps) {
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
