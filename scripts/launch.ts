/**
 * `npm start`: the four services as local processes, in production unless NODE_ENV says
 * otherwise, their logs on one output. On a terminal each line is made readable and tagged with
 * its service; anywhere else each service writes its JSON lines to the launcher's own stdout (no
 * relaying: parsing and re-serialising each access line cost the stack more than a cache hit).
 * A service that exits is restarted with backoff (scripts/supervisor.ts); only Ctrl-C or SIGTERM
 * of the launcher stops all four.
 */
import { loadConfig, port, z } from '#lib/config.js';
import { redactRedisUrl } from '#lib/redis-url.js';
import { launcherEnv } from './launcher-env.js';
import { launcherLine, pipeTagged, relaysReadable } from './log-lines.js';
import { supervise, type SupervisorEvent } from './supervisor.js';
import { SERVICE_NAMES, spawnService, waitForStack, type ServiceName } from './services.js';

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

say(`store: ${config.REDIS_URL ? `Redis at ${redactRedisUrl(config.REDIS_URL)}` : 'embedded (files under dist/build-store)'}`);
const supervisor = supervise({
  names: SERVICE_NAMES,
  start(name: ServiceName) {
    // Not a terminal: the services write their JSON lines to the launcher's own output directly.
    if (!readable) return spawnService(name, config.PORT, env, 'inherit');
    const child = spawnService(name, config.PORT, env);
    pipeTagged(name, child.stdout!, process.stdout);
    pipeTagged(name, child.stderr!, process.stderr);
    return child;
  },
  onEvent(event: SupervisorEvent) {
    if (event.kind === 'exited')
      say(`${event.name} exited (${event.signal ?? `code ${event.code}`}); restarting in ${event.restartInMs} ms`);
    if (event.kind === 'restarted') say(`${event.name} restarted (attempt ${event.attempt})`);
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

waitForStack(config.PORT, 60_000).then(
  () => say(`ready: http://localhost:${config.PORT}/`),
  (error: Error) => say(`not ready yet: ${error.message}`),
);
