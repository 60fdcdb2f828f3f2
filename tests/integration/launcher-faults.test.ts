/**
 * `npm start`'s launcher under faults: each service killed in turn, the site keeps serving the
 * rest and heals without anything else restarting; only the launcher's SIGTERM stops all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { waitFor } from '../support/wait-for.js';
import { findFreeBasePort } from '@tern/cli/ports';
import { SERVICE_NAMES, waitForOk, waitForStack, type ServiceName } from '@tern/cli/services';

/** The pid of the launcher's child running `name`, read from /proc (the launcher does not print it). */
function servicePid(launcher: number, name: ServiceName): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== launcher) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(`/services/${name}/dist/main.js`)) return Number(entry);
    } catch {
      // the process left meanwhile
    }
  }
  return undefined;
}

describe('the launcher under faults', () => {
  let launcher: ChildProcess;
  let origin = '';
  let dir = '';
  const status = async (path: string) => {
    const response = await fetch(origin + path, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  };

  beforeAll(async () => {
    const port = await findFreeBasePort();
    origin = `http://127.0.0.1:${port}`;
    dir = await mkdtemp(join(tmpdir(), 'launcher-faults-'));
    launcher = spawn(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'launch.js')], {
      cwd: projectRoot,
      env: {
        ...process.env,
        PORT: String(port),
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        BUILD_STORE_DIR: join(dir, 'store'),
        IMAGE_CACHE_DIR: join(dir, 'images'),
      },
      stdio: 'ignore',
    });
    await waitForStack(port, 60_000);
  }, 90_000);
  afterAll(async () => {
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  for (const name of SERVICE_NAMES.filter((n) => n !== 'gateway')) {
    it(`keeps serving while ${name} is killed, and heals`, async () => {
      const others = SERVICE_NAMES.filter((n) => n !== name).map((n) => servicePid(launcher.pid!, n));
      const pid = servicePid(launcher.pid!, name);
      expect(pid).toBeDefined();
      process.kill(pid!, 'SIGKILL');
      // /login is never cached, so it shows the outage; the signal lands a moment after kill()
      // returns and a request sent at once may still reach the dying renderer, so poll briefly
      // (it is restarted after 250 ms). `/` (swr) may be answered from the cache by then.
      if (name === 'renderer') await waitFor(async () => [502, 503].includes(await status('/login')), 3000, 20);
      else expect(await status('/')).toBe(200);
      await waitFor(
        async () =>
          (await fetch(`${origin}/readyz`).then((r) => r.json() as Promise<{ status: string; checks: Record<string, string> }>)).status ===
          'ready',
        30_000,
        200,
      );
      expect(await status('/')).toBe(200);
      const restarted = servicePid(launcher.pid!, name);
      expect(restarted).toBeDefined();
      expect(restarted).not.toBe(pid);
      // Nothing else was restarted.
      expect(SERVICE_NAMES.filter((n) => n !== name).map((n) => servicePid(launcher.pid!, n))).toEqual(others);
    }, 60_000);
  }

  it('restarts the gateway too, and stops all with exit code 0 on its own SIGTERM', async () => {
    const pid = servicePid(launcher.pid!, 'gateway');
    process.kill(pid!, 'SIGTERM');
    // The old gateway drains before it exits: wait for the new one, then for it to answer.
    await waitFor(() => ![undefined, pid].includes(servicePid(launcher.pid!, 'gateway')), 30_000, 100);
    await waitForOk(`${origin}/readyz`, 30_000);
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const name of SERVICE_NAMES) expect(servicePid(launcher.pid!, name)).toBeUndefined();
  }, 60_000);
});
