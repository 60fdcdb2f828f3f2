/**
 * The one way a service opens Redis: `openRedis(url, { log })`. Every client it makes reconnects
 * forever and never crashes its process; while Redis cannot be used, one log line per process and
 * URL says why (Redis's own answer: `DENIED … protected mode`, `WRONGPASS …`, `NOAUTH …`; or the
 * OS's: `ECONNREFUSED`, a connect or reply timeout), repeated with a doubling interval rather than
 * per attempt, and one line when it answers again. `redisState(client)` gives the same reason to
 * `/readyz`. Design: docs/decisions/availability.md, "Start in any order".
 */
import { Redis, type RedisOptions } from 'ioredis';
import { resilientRedisOptions } from './outage.js';
import { redactRedisUrl } from './redis-url.js';

/** The part of a pino/Fastify logger used here. */
export interface RedisLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface OpenRedisOptions {
  /** Where the reason goes; without one nothing is logged (one-shot CLIs report errors themselves). */
  log?: RedisLog | undefined;
  /** Overrides of `resilientRedisOptions` (a longer command timeout, an offline queue). */
  options?: RedisOptions;
  /** First repeat of an unchanged reason after this long, doubling up to `maxLogIntervalMs`. */
  firstLogIntervalMs?: number;
  maxLogIntervalMs?: number;
}

/** What a client last met: null once it is ready, the reason while it cannot be used. */
export interface RedisState {
  ready: boolean;
  reason: string | null;
}

/** Redis's or the OS's own words for why a connection failed, with ioredis's vaguer ones made plain. */
export function redisFailureReason(error: unknown, options: Pick<RedisOptions, 'connectTimeout' | 'commandTimeout'>): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/^connect ETIMEDOUT$/i.test(message)) return `connect timed out after ${options.connectTimeout ?? 10_000} ms`;
  if (/^Command timed out$/i.test(message))
    return `connected, but no reply within ${options.commandTimeout ?? 0} ms (a hung Redis, or not Redis at all)`;
  return message;
}

const sameKind = (reason: string | null) => reason?.replace(/\d+/g, '#') ?? null;

/** A connection broken under a command: after a refusal, Redis closing its side (protected mode does). */
const AFTERMATH = /\b(ECONNRESET|EPIPE)\b|^Connection is closed/;
const isReply = (error: unknown) => error instanceof Error && error.name === 'ReplyError';

interface Reporter {
  log: RedisLog | undefined;
  reason: string | null;
  /** Redis's own last refusal in this outage: the reset after it is the same refusal, not news. */
  refusal: string | null;
  since: number;
  failures: number;
  lastLoggedAt: number;
  intervalMs: number;
}

/** Per process and URL: every client of one Redis shares one line of reasons. */
const reporters = new Map<string, Reporter>();
const states = new WeakMap<Redis, RedisState>();

export function redisState(client: Redis): RedisState {
  return states.get(client) ?? { ready: client.status === 'ready', reason: null };
}

/** A store's health check on its connection: PING, and why not in Redis's own words. */
export interface RedisHealth {
  ping(): Promise<boolean>;
  /** Why the connection cannot be used now; null while it can. */
  unavailableReason(): string | null;
}

export function redisHealth(redis: Redis): RedisHealth {
  // A Redis that hangs after it was ready raises no connection error: only a command says so.
  let pingProblem: string | null = null;
  return {
    async ping() {
      try {
        const answered = (await redis.ping()) === 'PONG';
        pingProblem = null;
        return answered;
      } catch (error) {
        pingProblem = redisFailureReason(error, redis.options);
        return false;
      }
    },
    unavailableReason: () => redisState(redis).reason ?? pingProblem,
  };
}

export function openRedis(url: string, settings: OpenRedisOptions = {}): Redis {
  // No CLIENT SETINFO first: ioredis ignores its error, and with it Redis's own first answer
  // (protected mode's DENIED). The ready check's INFO is then the first command, and fails loudly.
  const options: RedisOptions = { ...resilientRedisOptions, disableClientInfo: true, ...settings.options };
  const client = new Redis(url, options);
  const target = redactRedisUrl(url);
  const firstMs = settings.firstLogIntervalMs ?? 1000;
  const maxMs = settings.maxLogIntervalMs ?? 60_000;
  const reporter = reporters.get(target) ?? {
    log: undefined,
    reason: null,
    refusal: null,
    since: 0,
    failures: 0,
    lastLoggedAt: 0,
    intervalMs: firstMs,
  };
  reporters.set(target, reporter);
  reporter.log ??= settings.log;
  const state: RedisState = { ready: false, reason: null };
  states.set(client, state);

  client.on('error', (error: unknown) => {
    const said = redisFailureReason(error, options);
    if (isReply(error)) reporter.refusal = said;
    const reason = reporter.refusal !== null && AFTERMATH.test(said) ? reporter.refusal : said;
    state.ready = false;
    state.reason = reason;
    const now = Date.now();
    if (reporter.reason === null) reporter.since = now;
    reporter.failures++;
    // Clients differ in timeouts and ports: "no reply within 500 ms" and "… 5000 ms" are one reason.
    const changed = sameKind(reason) !== sameKind(reporter.reason);
    if (!changed && now - reporter.lastLoggedAt < reporter.intervalMs) return;
    reporter.intervalMs = changed ? firstMs : Math.min(reporter.intervalMs * 2, maxMs);
    reporter.reason = reason;
    reporter.lastLoggedAt = now;
    reporter.log?.warn(
      { redis: target, reason, failures: reporter.failures, downMs: now - reporter.since },
      `Redis at ${target} cannot be used: ${reason}; retrying`,
    );
  });
  client.on('ready', () => {
    state.ready = true;
    state.reason = null;
    if (reporter.reason === null) return;
    reporter.log?.info({ redis: target, downMs: Date.now() - reporter.since }, `Redis at ${target} answers again`);
    Object.assign(reporter, { reason: null, refusal: null, failures: 0, intervalMs: firstMs });
  });
  client.on('close', () => {
    state.ready = false;
    state.reason ??= 'connection closed';
  });
  return client;
}
