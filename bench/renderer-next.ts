/**
 * The Next.js 16 side of bench/renderer.ts: the fixture app (bench/next-fixture) installed from
 * the npm registry and built in a temporary folder, reused while the fixture is unchanged, then
 * `next start` on a loopback port. Any failure is a reason to skip, never a crash.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDir, projectRoot } from '@tern/shared/config/paths';
import { freePort } from './support/free-port.js';
import { peerReady, type PeerApp } from './support/peer-app.js';

const FIXTURE = join(projectRoot, 'bench', 'next-fixture');
const WORK = join(tmpdir(), 'cookbook-next-bench');

export type NextApp = PeerApp;

function fixtureHash(dir = FIXTURE, hash = createHash('sha256')): string {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) fixtureHash(path, hash);
    else hash.update(name).update(readFileSync(path));
  }
  return dir === FIXTURE ? hash.digest('hex') : '';
}

function run(command: string, args: string[], timeoutMs: number): void {
  const result = spawnSync(command, args, {
    cwd: WORK,
    stdio: 'pipe',
    timeout: timeoutMs,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) {
    const tail = `${result.stderr?.toString() ?? ''}${result.stdout?.toString() ?? ''}`.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${tail}`);
  }
}

/** Installs (once) and builds (when the fixture changed) the Next app, then starts it. */
export async function startNextApp(): Promise<NextApp> {
  mkdirSync(WORK, { recursive: true });
  const hash = fixtureHash();
  const stamp = join(WORK, '.fixture-hash');
  if (!existsSync(join(WORK, 'node_modules', 'next', 'package.json'))) {
    cpSync(join(FIXTURE, 'package.json'), join(WORK, 'package.json'));
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'next@16', 'react', 'react-dom'], 600_000);
  }
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash || !existsSync(join(WORK, '.next', 'BUILD_ID'))) {
    cpSync(join(FIXTURE, 'app'), join(WORK, 'app'), { recursive: true });
    cpSync(join(FIXTURE, 'next.config.mjs'), join(WORK, 'next.config.mjs'));
    run(process.execPath, [join(WORK, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], 600_000);
    writeFileSync(stamp, hash);
  }
  const version = (JSON.parse(readFileSync(join(WORK, 'node_modules', 'next', 'package.json'), 'utf8')) as { version: string }).version;
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(WORK, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: WORK,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        CONTENT_FILE: join(buildDir, 'content', 'content.json'),
      },
    },
  );
  return peerReady(child, port, version, `Next.js ${version} (next start)`);
}
