#!/usr/bin/env node
// Builds when the build is missing or older than the sources; otherwise does nothing.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sourceStamp } from './source-stamp.mjs';

function builtStamp() {
  try {
    return readFileSync('dist/.source-stamp', 'utf8');
  } catch {
    return '';
  }
}

if (builtStamp() === sourceStamp()) {
  process.stdout.write('build: up to date\n');
} else {
  process.stdout.write('build: missing or stale, building...\n');
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
