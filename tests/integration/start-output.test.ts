/**
 * What `npm start` shows, as a newcomer sees it: started once on a pipe (a log collector) and once
 * on a pseudo-terminal (util-linux's `script`), with the launcher's command as package.json's
 * `start` gives it (the build is the test run's own). No runtime warning, no "listening" line, one ready line per service and then
 * one `ready at`; on a pipe every line is JSON, written by the services to the launcher's own
 * output (the same pipe, inherited), never relayed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { findFreeBasePort } from '@tern/cli/ports';
import { SERVICE_NAMES } from '@tern/cli/services';
import { waitFor } from '../support/wait-for.js';

/** package.json's `start` after its build: the launcher with the flags the running Node takes. */
const startScript = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
const launcherCommand = `exec ${startScript.split(' && ').pop()!}`;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Started {
  port: number;
  child: ChildProcess;
  /** Everything written so far, stdout and stderr apart. */
  out: () => string;
  err: () => string;
}

/** Starts `command` (argv) with a stack environment of its own; its output is collected. */
async function start(command: (port: number) => string[]): Promise<Started> {
  const port = await findFreeBasePort();
  const dir = await mkdtemp(join(tmpdir(), 'start-output-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    BUILD_STORE_DIR: join(dir, 'store'),
    IMAGE_CACHE_DIR: join(dir, 'images'),
    CACHE_DIR: join(dir, 'cache'),
    DATA_DIR: join(dir, 'data'),
  };
  for (const name of ['REDIS_URL', 'NODE_ENV', 'LOG_LEVEL', 'LOG_FORMAT', 'PUBLIC_ORIGIN'] as const) delete env[name];
  const [file, ...args] = command(port);
  const child = spawn(file!, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });
  return { port, child, out: () => out, err: () => err };
}

/** Stops a launcher with SIGTERM (the way Ctrl-C would) and waits for it. */
async function stop(pid: number, child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(pid, 'SIGTERM');
  await exited;
}

/** The pids of `parent`'s children, from /proc. */
function childrenOf(parent: number): number[] {
  const tasks = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8');
  return tasks.split(' ').filter(Boolean).map(Number);
}

const ready = (port: number) => `ready at http://localhost:${port}`;

/** The launcher's messages in order, whatever form its lines take. */
function checkAnnouncements(messages: string[], port: number): void {
  const readyLines = SERVICE_NAMES.map((name) => messages.filter((message) => new RegExp(`^${name} ready in \\d+\\.\\d s$`).test(message)));
  for (const lines of readyLines) expect(lines).toHaveLength(1);
  const all = messages.filter((message) => message === ready(port));
  expect(all).toHaveLength(1);
  const last = Math.max(...readyLines.map(([line]) => messages.indexOf(line!)));
  expect(messages.indexOf(ready(port))).toBeGreaterThan(last);
}

describe('npm start, as a newcomer sees it', () => {
  it('on a pipe: JSON lines only, written by the services themselves, and the ready lines', async () => {
    const started = await start(() => ['sh', '-c', launcherCommand]);
    await waitFor(() => started.out().includes(ready(started.port)), 60_000, 100);
    // An access line, from the gateway straight to the shared output.
    await fetch(`http://127.0.0.1:${started.port}/about`, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' } });
    await waitFor(() => started.out().includes('"path":"/about"'), 10_000, 50);

    // Each service's stdout and stderr is the launcher's own pipe: nothing passes through the launcher.
    const services = childrenOf(started.child.pid!);
    expect(services).toHaveLength(SERVICE_NAMES.length);
    const pipe = readlinkSync(`/proc/${started.child.pid}/fd/1`);
    // Node gives a child a socket pair for "pipe"; a shell pipe (npm start | tee) is a pipe.
    expect(pipe).toMatch(/^(pipe|socket):/);
    for (const pid of services) {
      expect(readlinkSync(`/proc/${pid}/fd/1`)).toBe(pipe);
      expect(readlinkSync(`/proc/${pid}/fd/2`)).toBe(readlinkSync(`/proc/${started.child.pid}/fd/2`));
    }
    await stop(started.child.pid!, started.child);

    expect(started.err()).toBe('');
    const lines = started.out().split('\n').filter(Boolean);
    const records = lines.map((line) => JSON.parse(line) as { service?: string; msg?: string; level?: number });
    for (const record of records) expect([...SERVICE_NAMES, 'launcher']).toContain(record.service);
    expect(records.filter((record) => /listening/i.test(record.msg ?? ''))).toEqual([]);
    expect(records.filter((record) => (record.level ?? 0) >= 40)).toEqual([]);
    expect(records.find((record) => record.service === 'gateway' && (record as { path?: string }).path === '/about')).toBeDefined();
    checkAnnouncements(
      records.filter((record) => record.service === 'launcher').map((record) => record.msg ?? ''),
      started.port,
    );
  }, 90_000);

  it('on a terminal: readable lines tagged with their service, and the ready lines', async () => {
    // `script` gives the launcher a pseudo-terminal as stdout and stderr; -e returns its exit code.
    const started = await start(() => ['script', '-qefc', launcherCommand, '/dev/null']);
    await waitFor(() => started.out().includes(ready(started.port)), 60_000, 100);
    const [pid] = childrenOf(started.child.pid!);
    await stop(pid!, started.child);

    // A terminal holds stdout and stderr in one stream, colours included.
    const lines = (started.out() + started.err())
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split(/\r?\n/)
      .filter(Boolean);
    expect(lines.filter((line) => /warning/i.test(line))).toEqual([]);
    expect(lines.filter((line) => /listening/i.test(line))).toEqual([]);
    for (const line of lines) expect(line).toMatch(/^\[(gateway|renderer|image|icons|launcher)\] +\S/);
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
    for (const name of SERVICE_NAMES.filter((n) => n !== 'gateway')) expect(lines.some((line) => line.startsWith(`[${name}]`))).toBe(true);
    checkAnnouncements(
      lines.filter((line) => line.startsWith('[launcher]')).map((line) => line.replace(/^\[launcher\] +/, '')),
      started.port,
    );
  }, 90_000);
});
