/**
 * A build step's inputs, as one hash: the files it reads (folders walked, tests left out), the
 * source files its script imports, the environment that changes its output, and the keys of the
 * steps it builds on. The key is stored beside the build output (dist/.inputs/{step}); a step whose
 * key and outputs are there is not run again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importClosure } from './server-sources.mjs';

const SKIP = new Set(['node_modules', 'dist', 'test']);
const TEST_FILE = /\.test\.tsx?$/;

function* filesUnder(root, path) {
  let stat;
  try {
    stat = statSync(join(root, path));
  } catch {
    yield [path, null]; // a missing input counts, as missing
    return;
  }
  if (stat.isFile()) {
    if (!TEST_FILE.test(path)) yield [path, stat];
    return;
  }
  for (const name of readdirSync(join(root, path)).sort()) {
    if (!SKIP.has(name)) yield* filesUnder(root, `${path}/${name}`);
  }
}

/**
 * @param {string} root the project
 * @param {{ files?: string[], imports?: string[], env?: string[], derived?: () => string[], after?: string[] }} inputs
 *   files: files and folders read; imports: scripts whose import closure counts; env: variables;
 *   derived: values read from other steps' output when the step starts; after: keys of the steps
 *   whose output it reads as a whole
 */
export function inputsKey(root, { files = [], imports = [], env = [], derived = () => [], after = [] }) {
  const hash = createHash('sha256');
  const paths = [...files, ...importClosure(root, imports)];
  for (const input of [...new Set(paths)].sort()) {
    for (const [path, stat] of filesUnder(root, input)) {
      hash.update(`${path}\0`);
      hash.update(stat ? readFileSync(join(root, path)) : '\0missing');
      hash.update('\0');
    }
  }
  for (const name of env) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  for (const value of derived()) hash.update(`${value}\0`);
  for (const key of after) hash.update(`${key}\0`);
  return hash.digest('hex');
}

const stampFile = (buildDir, step) => join(buildDir, '.inputs', step);

/**
 * Whether the step last succeeded with these inputs and its outputs are still there.
 * @param {Array<string | (() => boolean)>} outputs paths that must exist, or checks
 */
export function upToDate(buildDir, step, key, outputs) {
  try {
    const present = (output) => (typeof output === 'function' ? output() : existsSync(output));
    return readFileSync(stampFile(buildDir, step), 'utf8') === key && outputs.every(present);
  } catch {
    return false;
  }
}

export function recordInputs(buildDir, step, key) {
  const file = stampFile(buildDir, step);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, key);
}
