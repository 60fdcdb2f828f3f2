/**
 * Services as single local processes with an environment of the test's own (the rollout test runs
 * several of one kind side by side, which the stack of packages/cli/src/local-stack.ts does not).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { projectRoot } from '@tern/shared/config/paths';
import { serviceEntry, waitForOk, type ServiceName } from '@tern/cli/services';

export interface ServiceProcess {
  name: string;
  url: string;
  logs: string[];
  /** SIGTERM, then resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
}

export async function startProcess(name: string, service: ServiceName, port: number, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [serviceEntry(service)], {
    cwd: projectRoot,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      logs.push(line);
      if (process.env.STACK_LOGS) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  const early = exited.then((code) => {
    throw new Error(`${name} exited with ${code} before it was healthy:\n${logs.slice(-20).join('\n')}`);
  });
  early.catch(() => undefined);
  try {
    await Promise.race([waitForOk(`${url}/healthz`, 30_000), early]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, url, logs, stop };
}
