#!/usr/bin/env node
/**
 * `tern`, the platform's command line: one name for what the root package.json's scripts run.
 *
 *   tern build [--force]   the build steps whose inputs changed (build.mjs)
 *   tern start             build what is missing, then the four services (the launcher)
 *   tern dev               the dev loop (compile with a watch, Vite in the renderer)
 *   tern prerender | builds … | cache …   the build's prerender step, the builds and cache CLIs
 *
 * Plain JavaScript, like build.mjs: it runs before anything is compiled.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromSource } from './project.mjs';

const src = dirname(fileURLToPath(import.meta.url));
const dist = join(src, '..', 'dist');

/**
 * One step in a Node process of its own, with this terminal. A SIGTERM to `tern` (a supervisor's,
 * a test's) is passed on, so the step stops its services before `tern` exits: `tern` gone with its
 * launcher still running would leave four services on their ports. Ctrl-C's SIGINT reaches the
 * step from the terminal already (the whole foreground group gets it): `tern` only waits for it,
 * as passing it on would make the step's second SIGINT cut its own shutdown short.
 */
const ignore = () => {};
function node(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGTERM', forward).on('SIGHUP', forward).on('SIGINT', ignore);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward).off('SIGHUP', forward).off('SIGINT', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function run(...steps) {
  for (const args of steps) {
    const status = await node(typeof args === 'function' ? args() : args);
    if (status !== 0) return status;
  }
  return 0;
}
/** The launcher's own V8 flags, asked of launcher-flags.js once it is compiled. */
const launcherFlags = () => {
  const out = spawnSync(process.execPath, [join(dist, 'launcher-flags.js')], { encoding: 'utf8' });
  return out.stdout.trim().split(' ').filter(Boolean);
};

const COMMANDS = {
  build: (rest) => run([join(src, 'build.mjs'), ...rest]),
  start: () => run([join(src, 'ensure-build.mjs')], () => [...launcherFlags(), join(dist, 'launch.js')]),
  // An installed platform was compiled when it was packed; its checkout compiles its sources first.
  dev: () => run(...(fromSource ? [[join(src, 'compile-server.mjs')]] : []), [join(dist, 'dev.js')]),
  prerender: (rest) => run([join(dist, 'prerender.js'), ...rest]),
  builds: (rest) => run([join(dist, 'builds-cli.js'), ...rest]),
  cache: (rest) => run([join(dist, 'cache-cli.js'), ...rest]),
};

const [command, ...rest] = process.argv.slice(2);
const handler = command ? COMMANDS[command] : undefined;
if (!handler) {
  process.stderr.write(`usage: tern <${Object.keys(COMMANDS).join('|')}> [args]${command ? ` (unknown command: ${command})` : ''}\n`);
  process.exit(2);
}
process.exit(await handler(rest));
