/**
 * `npm start`: the four services as local processes, their logs on one terminal, each line
 * tagged with its service. Ctrl-C or SIGTERM stops all four; if one dies, all stop.
 */
import type { ChildProcess } from 'node:child_process';
import { loadConfig, port, z } from '../lib/config.js';
import { pipeTagged, tag } from './log-lines.js';
import { SERVICE_NAMES, spawnService, waitForOk, type ServiceName } from './services.js';

const config = loadConfig('launcher', {
  PORT: port(3000),
  REDIS_URL: z.string().url('expected a redis:// URL').optional(),
});
if (config.PORT > 65532) {
  process.stderr.write('launcher: invalid configuration: PORT: expected at most 65532, as the services use PORT to PORT+3\n');
  process.exit(1);
}

const say = (message: string) => process.stdout.write(`${tag('launcher', Boolean(process.stdout.isTTY))} ${message}\n`);
const children = new Map<ServiceName, ChildProcess>();
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  say('stopping all services...');
  for (const child of children.values()) child.kill('SIGTERM');
  const force = setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 10_000);
  force.unref();
  const left = [...children.values()].filter((child) => child.exitCode === null && child.signalCode === null);
  let remaining = left.length;
  if (remaining === 0) process.exit(code);
  for (const child of left) {
    child.once('exit', (exitCode) => {
      if (exitCode !== 0 && exitCode !== null) code ||= 1;
      if (--remaining === 0) process.exit(code);
    });
  }
}

say(`store: ${config.REDIS_URL ? `Redis at ${config.REDIS_URL}` : 'embedded (files under dist/build-store)'}`);
for (const name of SERVICE_NAMES) {
  const child = spawnService(name, config.PORT, process.env);
  children.set(name, child);
  pipeTagged(name, child.stdout!, process.stdout);
  pipeTagged(name, child.stderr!, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(`${name} exited (${signal ?? `code ${code}`}); stopping the others`);
    stopAll(1);
  });
}
process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

waitForOk(`http://127.0.0.1:${config.PORT}/readyz`, 60_000).then(
  () => say(`ready: http://localhost:${config.PORT}/`),
  (error: Error) => say(`not ready yet: ${error.message}`),
);
