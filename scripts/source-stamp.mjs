// A fingerprint of everything the build reads, so `npm start` rebuilds only when it changed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const inputs = ['lib', 'services', 'content', 'public', 'scripts', 'bench', 'site', 'package-lock.json', 'tsconfig.json'];
const skip = new Set(['node_modules', 'dist', 'test']);

function* files(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return;
  }
  if (stat.isFile()) {
    if (!/\.test\.tsx?$/.test(path)) yield [path, stat];
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (!skip.has(name)) yield* files(join(path, name));
  }
}

export function sourceStamp(root = '.') {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const [path, stat] of files(join(root, input))) {
      hash.update(`${path}\0${stat.size}\0`);
      hash.update(readFileSync(path));
    }
  }
  return hash.digest('hex');
}
