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
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromSource } from './project.mjs';

const src = dirname(fileURLToPath(import.meta.url));
const dist = join(src, '..', 'dist');
const node = (args) => spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
const run = (...steps) => {
  for (const args of steps) {
    const status = typeof args === 'function' ? node(args()) : node(args);
    if (status !== 0) return status;
  }
  return 0;
};
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
process.exit(handler(rest));
