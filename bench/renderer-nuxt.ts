/**
 * The Nuxt side of bench/renderer.ts: the peer app of issue 35 (`../shared/peers/nuxt-dynamic`,
 * the category page rendered per request from our content file), copied to a temporary folder,
 * installed from the npm registry and built there (reused while the peer's files are unchanged),
 * then run in a process of its own. Its code is never copied into the repository.
 * NUXT_PEER_DIR names another copy of the peer. Any failure is a reason to skip, never a crash.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDir, projectRoot } from '@tern/shared/config/paths';
import { freePort } from './support/free-port.js';
import { peerReady, type PeerApp } from './support/peer-app.js';

export type { PeerApp };

const PEER = process.env.NUXT_PEER_DIR ?? join(projectRoot, '..', 'shared', 'peers', 'nuxt-dynamic');
const WORK = join(tmpdir(), 'tern-nuxt-peer-bench');
/** The newest Nuxt that builds on Node 20 (the peers' README); the peer asks for ^4.4.5. */
const NUXT_VERSION = '4.4.5';

function treeHash(dir: string, hash = createHash('sha256')): string {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) treeHash(path, hash.update(`${name}/`));
    else hash.update(name).update(readFileSync(path));
  }
  return hash.copy().digest('hex');
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): void {
  const result = spawnSync(command, args, { cwd: WORK, stdio: 'pipe', timeout: timeoutMs, env: { ...process.env, ...env } });
  if (result.status !== 0) {
    const tail = `${result.stderr?.toString() ?? ''}${result.stdout?.toString() ?? ''}`.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${tail}`);
  }
}

/** The peer's files in WORK (writable: the shared copy is read-only), Nuxt pinned to a version Node 20 builds. */
function copyPeer(): void {
  cpSync(PEER, WORK, { recursive: true, filter: (source) => !source.includes('node_modules') && !source.includes('.output') });
  for (const path of [WORK, join(WORK, 'package.json')]) chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  const pkg = JSON.parse(readFileSync(join(WORK, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  pkg.dependencies.nuxt = NUXT_VERSION;
  writeFileSync(join(WORK, 'package.json'), JSON.stringify(pkg, null, 2));
}

/** Installs (once) and builds (when the peer or the content changed) the Nuxt app. */
function prepare(contentFile: string): void {
  if (!existsSync(join(PEER, 'package.json'))) throw new Error(`no Nuxt peer at ${PEER} (set NUXT_PEER_DIR)`);
  const hash = `${treeHash(PEER)}:${createHash('sha256').update(readFileSync(contentFile)).digest('hex')}`;
  const stamp = join(WORK, '.peer-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(WORK, '.output', 'server', 'index.mjs'))) return;
  mkdirSync(WORK, { recursive: true });
  copyPeer();
  if (!existsSync(join(WORK, 'node_modules', 'nuxt', 'package.json')))
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {}, 900_000);
  run(process.execPath, [join(WORK, 'node_modules', '@nuxt', 'cli', 'bin', 'nuxi.mjs'), 'build'], { CONTENT_FILE: contentFile }, 600_000);
  writeFileSync(stamp, hash);
}

export async function startNuxtApp(): Promise<PeerApp> {
  const contentFile = join(buildDir, 'content', 'content.json');
  prepare(contentFile);
  const version = (JSON.parse(readFileSync(join(WORK, 'node_modules', 'nuxt', 'package.json'), 'utf8')) as { version: string }).version;
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(WORK, '.output', 'server', 'index.mjs')], {
    cwd: WORK,
    stdio: 'ignore',
    // Vue's production build needs NODE_ENV at run time (the peers' README).
    env: { ...process.env, NODE_ENV: 'production', CONTENT_FILE: contentFile, HOST: '127.0.0.1', PORT: String(port) },
  });
  return peerReady(child, port, version, `Nuxt ${version} (nuxt-dynamic)`);
}
