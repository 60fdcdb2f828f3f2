/**
 * pino for every service: JSON in production and whenever stdout is not a terminal (the
 * launcher and containers read JSON), pino-pretty when a person runs a service by hand.
 */
import { pino, type Logger, type LoggerOptions } from 'pino';
import { batchedDestination } from './log-destination.js';

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
  return options.level === 'silent' ? pino(options) : pino(options, batchedDestination());
}
