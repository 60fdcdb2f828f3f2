/**
 * Process-level behaviour: `npm start`'s launcher on PORT..PORT+3, refusing bad config with one
 * line, and a service draining in-flight requests on SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { waitFor } from '../support/wait-for.js';
import { SERVICE_NAMES, serviceEntry, spawnService, waitForOk } from '@tern/cli/services';
import { findFreeBasePort } from '@tern/cli/ports';

const launcher = join(projectRoot, 'packages', 'cli', 'dist', 'launch.js');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The embedded store: the environment without any REDIS_URL the tests were started with. */
function withoutRedis(): NodeJS.ProcessEnv {
  const { REDIS_URL: _ignored, ...env } = process.env;
  return env;
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('configuration errors', () => {
  it('the launcher refuses PORT=abc with one line that names PORT', () => {
    const result = spawnSync(process.execPath, [launcher], { env: { ...process.env, PORT: 'abc' }, encoding: 'utf8' });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });

  it.each(SERVICE_NAMES)('%s refuses a bad PORT with one line and exit code 1', (name) => {
    const result = spawnSync(process.execPath, [serviceEntry(name)], {
      env: { ...withoutRedis(), PORT: '70000' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/PORT/);
  });
});

/** The environment of a running process, from /proc. */
function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** The launcher's children running each service, from /proc. */
function childrenOf(parent: number): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      const name = SERVICE_NAMES.find((n) => readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(`/services/${n}/dist/main.js`));
      if (name) found.set(name, Number(entry));
    } catch {
      // the process left meanwhile
    }
  }
  return found;
}

describe('the launcher', () => {
  it('runs the four services on PORT to PORT+3 in production when NODE_ENV is unset, relays their JSON lines as they are, and stops them all on SIGTERM', async () => {
    const base = await findFreeBasePort();
    const { NODE_ENV: _unset, ...env } = withoutRedis();
    const child = spawn(process.execPath, [launcher], {
      cwd: projectRoot,
      env: { ...env, PORT: String(base) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = exitOf(child);
    cleanups.push(() => void child.kill('SIGKILL'));
    for (let i = 0; i < 4; i++) await waitForOk(`http://127.0.0.1:${base + i}/healthz`, 30_000);
    await waitForOk(`http://127.0.0.1:${base}/readyz`, 30_000);
    // React's production build: every service was started with NODE_ENV=production.
    const children = childrenOf(child.pid!);
    expect([...children.keys()].sort()).toEqual([...SERVICE_NAMES].sort());
    for (const pid of children.values()) expect(environOf(pid).NODE_ENV).toBe('production');
    await fetch(`http://127.0.0.1:${base}/healthz?relayed`).then((r) => r.arrayBuffer());
    await waitFor(() => output.join('').includes('?relayed'), 10_000);
    // Not a terminal: one JSON record per line, each naming its service (the launcher's own too).
    const lines = output.join('').split('\n').filter(Boolean);
    const records = lines.map((line) => JSON.parse(line) as { service: string });
    for (const name of [...SERVICE_NAMES, 'launcher']) expect(records.some((record) => record.service === name)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('graceful shutdown', () => {
  let slow: Server;
  it('lets an in-flight request finish after SIGTERM and exits 0 within 10 s', async () => {
    slow = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('finished'), 1500);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => slow.close(() => resolve())));
    const address = slow.address();
    const upstream = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const base = await findFreeBasePort();
    const gateway = spawnService('gateway', base, {
      ...withoutRedis(),
      RENDERER_URL: upstream,
      IMAGE_URL: upstream,
      ICONS_URL: upstream,
    });
    cleanups.push(() => void gateway.kill('SIGKILL'));
    const exited = exitOf(gateway);
    await waitForOk(`http://127.0.0.1:${base}/healthz`);
    const inFlight = fetch(`http://127.0.0.1:${base}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    gateway.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('finished');
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
  });
});
