/**
 * The launcher's own V8 settings, as package.json's `start` gives them (`node $(node
 * packages/cli/dist/launcher-flags.js) …`; bench/support/launched-stack.ts and the tests start it
 * the same way): it only supervises, with no hot path of its own once the services write their
 * lines to its stdout themselves, so V8's lite mode (no optimising compiler, feedback made lazily)
 * serves it in 49 MB of RSS instead of 54.
 *
 * Lite mode has no WebAssembly (the launcher uses none). Node 20's V8 still has the expose-wasm
 * flag, on by default, and says "disabling flag --expose_wasm due to conflicting flags" at every
 * start unless `--no-expose-wasm` is given; Node 24's has no such flag and refuses it. So the Node
 * that runs is asked, once.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let flags: string[] | undefined;

export function launcherNodeFlags(): string[] {
  flags ??=
    spawnSync(process.execPath, ['--no-expose-wasm', '-e', ''], { stdio: 'ignore' }).status === 0
      ? ['--lite-mode', '--no-expose-wasm']
      : ['--lite-mode'];
  return flags;
}

// As a script: the flags, for the shell of package.json's `start`.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.stdout.write(launcherNodeFlags().join(' '));
