/**
 * `npm start`: the four services as local processes, in production unless NODE_ENV says
 * otherwise, their logs on one output. On a terminal each line is made readable and tagged with
 * its service (and kept as it came in dist/logs/start-{PORT}.jsonl, stack traces included); anywhere else
 * each service writes its JSON lines to the launcher's own stdout, the file descriptor it inherits
 * (no relaying: parsing and re-serialising each access line cost the stack more than a cache hit).
 * The launcher says when each service is ready (its /readyz, never its log), then once when all
 * are. A service that exits is restarted with backoff (packages/cli/src/supervisor.ts); only Ctrl-C or
 * SIGTERM of the launcher stops all four.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, port, z } from '@tern/shared/config/service-config';
import { buildDir } from '@tern/shared/config/paths';
import { redactRedisUrl } from '@tern/shared/redis/redis-url';
import { READY_PATH } from '@tern/shared/url-space/health';
import { launcherEnv } from './launcher-env.js';
import { launcherLine, pipeTagged, relaysReadable } from './log-lines.js';
import { supervise, type SupervisorEvent } from './supervisor.js';
import { PORT_OFFSETS, SERVICE_NAMES, spawnService, waitForOk, type ServiceName } from './services.js';

const config = loadConfig('launcher', {
  PORT: port(3000),
  REDIS_URL: z.string().url('expected a redis:// URL').optional(),
});
if (config.PORT > 65532) {
  process.stderr.write('launcher: invalid configuration: PORT: expected at most 65532, as the services use PORT to PORT+3\n');
  process.exit(1);
}

const say = (message: string, level: 30 | 50 = 30) => process.stdout.write(launcherLine(message, process.stdout, level));

const env = launcherEnv(process.env);
const readable = relaysReadable(process.stdout);

/** On a terminal, every line as it came (JSON), where the readable line leaves out a stack trace. */
function openJsonLog(): WriteStream {
  const dir = join(buildDir, 'logs');
  mkdirSync(dir, { recursive: true });
  return createWriteStream(join(dir, `start-${config.PORT}.jsonl`));
}
const jsonLog = readable ? openJsonLog() : null;
const keep = (name: ServiceName) => (line: string) =>
  jsonLog?.write(line.startsWith('{') ? `${line}\n` : `${JSON.stringify({ level: 50, time: Date.now(), service: name, msg: line })}\n`);

const started = Date.now();
const readyUrl = (name: ServiceName) => `http://127.0.0.1:${config.PORT + PORT_OFFSETS[name]}${READY_PATH}`;
const awaiting = new Map<ServiceName, number>();
/**
 * Says when a service answers its readiness check (again, after a restart). One not ready within a
 * minute (Redis away, say) is named once, with where to read why, and still awaited.
 */
async function announceReady(name: ServiceName, again = false): Promise<void> {
  const since = again ? Date.now() : started;
  // A newer start of the same service (restarted again meanwhile) speaks for it instead.
  const turn = (awaiting.get(name) ?? 0) + 1;
  awaiting.set(name, turn);
  let warned = false;
  for (;;) {
    if (awaiting.get(name) !== turn) return;
    try {
      await waitForOk(readyUrl(name), 60_000);
      break;
    } catch {
      if (!warned) say(`${name} is not ready after 60 s; ${readyUrl(name)} says why`, 50);
      warned = true;
    }
  }
  if (awaiting.get(name) === turn) say(`${name} ready${again ? ' again' : ''} in ${((Date.now() - since) / 1000).toFixed(1)} s`);
}

say(`store: ${config.REDIS_URL ? `Redis at ${redactRedisUrl(config.REDIS_URL)}` : 'embedded (files under dist/build-store)'}`);
const supervisor = supervise({
  names: SERVICE_NAMES,
  start(name: ServiceName) {
    // Not a terminal: the services write their JSON lines to the launcher's own output directly.
    if (!readable) return spawnService(name, config.PORT, env, 'inherit');
    const child = spawnService(name, config.PORT, env);
    pipeTagged(name, child.stdout!, process.stdout, keep(name));
    pipeTagged(name, child.stderr!, process.stderr, keep(name));
    return child;
  },
  onEvent(event: SupervisorEvent) {
    if (event.kind === 'exited')
      say(`${event.name} exited (${event.signal ?? `code ${event.code}`}); restarting in ${event.restartInMs} ms`);
    if (event.kind === 'restarted') {
      say(`${event.name} restarted (attempt ${event.attempt})`);
      void announceReady(event.name as ServiceName, true);
    }
    if (event.kind === 'gave-up')
      say(
        `ERROR: ${event.name} crashed ${event.crashes} times in a row soon after starting; not restarting it (the others keep serving)`,
        50,
      );
  },
});

let stopping = false;
function stopAll(): void {
  if (stopping) return;
  stopping = true;
  say('stopping all services...');
  // 0: all stopped cleanly; 1: a service failed to stop cleanly or had been given up on.
  void supervisor.stop().then(({ clean, gaveUp }) => {
    if (gaveUp.length > 0) say(`exiting with code 1: gave up on ${gaveUp.join(', ')}`, 50);
    process.exit(clean ? 0 : 1);
  });
}
process.once('SIGINT', stopAll);
process.once('SIGTERM', stopAll);

// One line per service as it gets ready, then one for the whole stack.
void Promise.all(SERVICE_NAMES.map((name) => announceReady(name))).then(() => say(`ready at http://localhost:${config.PORT}`));
