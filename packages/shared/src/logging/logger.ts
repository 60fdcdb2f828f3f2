/**
 * pino for every service: JSON in production and whenever stdout is not a terminal (the
 * launcher and containers read JSON), pino-pretty when a person runs a service by hand.
 */
import { pino, type Logger, type LoggerOptions } from 'pino';
import { batchedDestination } from './log-destination.js';
import { addJsonLineWriter } from './json-lines.js';

export type { Logger };

export interface LoggerSettings {
  service: string;
  level?: string;
  format?: 'json' | 'pretty' | undefined;
  nodeEnv?: string;
}

export function chooseLogFormat(settings: LoggerSettings): 'json' | 'pretty' {
  if (settings.format) return settings.format;
  if (settings.nodeEnv === 'production') return 'json';
  return process.stdout.isTTY ? 'pretty' : 'json';
}

/**
 * Fastify's "Server listening at …", said on every listen (packages/shared/src/http/service.ts leaves it out): an
 * internal port's address is nobody's business at the terminal, and the gateway's came before the
 * stack could serve. Each service says it is ready in a line of its own; `npm start` says when all
 * are (packages/cli/src/launch.ts).
 */
export const FASTIFY_LISTENING = 'Server listening at ';

let crashesLogged = false;

/**
 * A crash (an uncaught exception, or a rejection nobody handled: a port taken at start) as one
 * fatal JSON line with its stack, where Node would print the stack over many lines of stderr; the
 * launcher shows it on a terminal as one readable line. The process still exits 1.
 */
function logCrashes(logger: Logger): void {
  if (crashesLogged) return;
  crashesLogged = true;
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, `crashed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: { service: settings.service },
    // Never let credentials reach a log line.
    redact: {
      // ioredis puts a failed command on its error: AUTH's arguments are the password.
      paths: ['req.headers.cookie', 'req.headers.authorization', 'password', '*.password', 'err.command.args'],
      censor: '[redacted]',
    },
  };
  if (chooseLogFormat(settings) === 'pretty') {
    options.transport = {
      target: 'pino-pretty',
      options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' },
    };
    return pino(options);
  }
  // Silent loggers (tests) write nothing: no destination for them.
  if (options.level === 'silent') return pino(options);
  const destination = batchedDestination();
  const logger = pino(options, destination);
  addJsonLineWriter(logger, settings.service, destination);
  logCrashes(logger);
  return logger;
}
