#!/usr/bin/env node
/**
 * `npm run build` (and `npm start`, `npm test` through ensure-build.mjs): the build's steps
 * (packages/cli/src/build-steps.mjs), each run only when its inputs changed since it last succeeded, steps
 * that do not depend on each other side by side. One line per step; a step's own output is shown
 * only when it fails. `--force` runs every step.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { inputsKey, recordInputs, upToDate } from './build-inputs.mjs';
import { buildSteps } from './build-steps.mjs';
import { compileServer } from './compile-server.mjs';
import { projectRoot as root } from './project.mjs';
import { serverSources } from './server-sources.mjs';

const buildDir = process.env.BUILD_DIR ? resolve(process.env.BUILD_DIR) : resolve(root, 'dist');
// The compiled server code always goes to the project's dist/node, whatever BUILD_DIR says.
const dirOf = (step) => (step.name === 'compile' ? resolve(root, 'dist') : buildDir);
const force = process.argv.includes('--force');
const say = (line) => process.stdout.write(`build: ${line}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command with its output held; resolves with it, rejects with it on failure. */
function run([file, args]) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const output = Buffer.concat(chunks).toString('utf8');
      if (code === 0) resolvePromise(output);
      else reject(Object.assign(new Error(`exited with code ${code}`), { output }));
    });
  });
}

/** The step's last line of output, when it says what it made (e.g. `icons: 200 set indexes…`). */
const summary = (output) => output.trim().split('\n').pop()?.trim() ?? '';

async function runStep(step, keys) {
  const inputs = step.inputs.serverSources ? { ...step.inputs, files: [...step.inputs.files, ...serverSources(root)] } : step.inputs;
  const key = inputsKey(root, { ...inputs, after: step.after.map((name) => keys.get(name)) });
  keys.set(step.name, key);
  const outputs = step.outputs.map((output) => (typeof output === 'function' ? output : resolve(root, output)));
  if (!force && upToDate(dirOf(step), step.name, key, outputs)) return { ran: false, ms: 0 };
  const started = Date.now();
  const output = await (step.command ? run(step.command) : compileServer().then((count) => `${count} files`)).catch((error) => {
    throw Object.assign(error, { step });
  });
  const ms = Date.now() - started;
  recordInputs(dirOf(step), step.name, key);
  say(`${step.label}: ${seconds(ms)}${summary(output) ? ` (${summary(output)})` : ''}`);
  return { ran: true, ms };
}

async function main() {
  const steps = buildSteps(buildDir);
  const keys = new Map();
  const done = new Map();
  const started = Date.now();
  const runs = new Map();
  // Each step starts once the steps it needs have finished: icons and content side by side.
  const start = (step) => {
    if (!runs.has(step.name)) {
      const needs = [...step.after, ...(step.runsAfter ?? [])].map((name) => start(steps.find((s) => s.name === name)));
      runs.set(
        step.name,
        Promise.all(needs).then(async () => {
          const result = await runStep(step, keys);
          done.set(step.name, result);
          return result;
        }),
      );
    }
    return runs.get(step.name);
  };
  try {
    await Promise.all(steps.map(start));
  } catch (error) {
    // The step's own output says what is wrong; then one line says which step it was.
    if (error.output) process.stderr.write(error.output);
    process.stderr.write(`build: ${error.step?.label ?? 'a step'} failed (${error.message})\n`);
    process.exit(1);
  }
  const ran = steps.filter((step) => done.get(step.name).ran);
  if (ran.length === 0) return say('up to date');
  const total = Date.now() - started;
  const shares = ran.map((step) => `${step.name} ${Math.round((done.get(step.name).ms / total) * 100)} %`).join(', ');
  const skipped = steps.length - ran.length;
  say(`done in ${seconds(total)}: ${shares}${skipped ? `; ${skipped} step(s) unchanged` : ''}`);
}

await main();
