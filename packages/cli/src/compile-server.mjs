#!/usr/bin/env node
/**
 * `npm run build:node`: the server code (tsconfig.json's files) transpiled with esbuild, one
 * output file per source file: a workspace package's src/ into its own dist/, anything else
 * (bench/) into dist/node/ in the layout `tsc` gives it.
 * Types are checked by `npm run typecheck` (tsc), not here: transpiling the ~300 files takes a fraction of a second where tsc took 5 to 56 s (docs/decisions/fast-build.md).
 *
 *   node packages/cli/src/compile-server.mjs            compile once
 *   node packages/cli/src/compile-server.mjs --watch    compile, then again on every save (npm run dev)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { compiledStem, serverSources } from './server-sources.mjs';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/**
 * esbuild's options for the transpile: what tsc's emit does, file by file, each file into its
 * package's dist/ (server-sources.mjs `compiledStem`), where the package's exports map finds it.
 */
function transpileOptions(files) {
  return {
    absWorkingDir: root,
    entryPoints: files.map((file) => ({ in: file, out: compiledStem(root, file) })),
    outdir: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    // tsconfig's target is ES2023; Node 20 runs all of it.
    target: 'node20',
    sourcemap: 'linked',
    // react-jsx, as tsconfig.json says.
    jsx: 'automatic',
    tsconfig: 'tsconfig.json',
    logLevel: 'warning',
  };
}

/** Compiles every server source once; resolves with how many files were written. */
export async function compileServer() {
  const files = serverSources(root);
  const result = await esbuild.build(transpileOptions(files));
  if (result.errors.length > 0) throw new Error(`compile: ${result.errors.length} error(s)`);
  return files.length;
}

/**
 * Compiles, then watches: a saved file is transpiled again (esbuild's incremental context), and a
 * file added under the server folders is picked up by looking for new sources after each rebuild.
 * `onBuilt` hears of every build, with its errors (the dev loop's terminal says them).
 */
export async function watchServer(onBuilt) {
  let files = serverSources(root);
  let context = await newContext(files, onBuilt);
  // A new file (or one removed) changes the entry points, which a context cannot change: a new one.
  const rescan = setInterval(async () => {
    const now = serverSources(root);
    if (now.length === files.length && now.every((file, i) => file === files[i])) return;
    files = now;
    await context.dispose();
    context = await newContext(files, onBuilt);
  }, 1000);
  return {
    async stop() {
      clearInterval(rescan);
      await context.dispose();
    },
  };
}

/**
 * Writes the files whose content changed, and no other: the services run under `node --watch`,
 * which restarts a service when a file it imported is written, and a context's first build would
 * otherwise write all of them again just after the services started.
 */
function writeChanged(outputFiles) {
  for (const file of outputFiles) {
    let current = null;
    try {
      current = readFileSync(file.path);
    } catch {
      mkdirSync(dirname(file.path), { recursive: true });
    }
    if (!current || !current.equals(file.contents)) writeFileSync(file.path, file.contents);
  }
}

async function newContext(files, onBuilt) {
  const context = await esbuild.context({
    ...transpileOptions(files),
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'write-changed',
        setup: (build) =>
          build.onEnd((result) => {
            writeChanged(result.outputFiles ?? []);
            onBuilt(result);
          }),
      },
    ],
  });
  await context.watch();
  return context;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--watch')) {
    // Quiet while all is well: a line for each error, and one when they are fixed.
    let failing = false;
    await watchServer((result) => {
      for (const message of esbuild.formatMessagesSync(result.errors, { kind: 'error', color: false }))
        process.stderr.write(`${message.trim().replace(/\n\s*\n/g, '\n')}\n`);
      if (failing && result.errors.length === 0) process.stdout.write('compile: fixed, no errors\n');
      failing = result.errors.length > 0;
    });
  } else {
    const started = Date.now();
    const count = await compileServer().catch((error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    });
    const version = JSON.parse(readFileSync(resolve(root, 'node_modules/esbuild/package.json'), 'utf8')).version;
    process.stdout.write(`compile: ${count} files with esbuild ${version} in ${Date.now() - started} ms\n`);
  }
}
