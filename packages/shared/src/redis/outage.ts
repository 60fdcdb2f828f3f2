/**
 * What every Redis-backed store shares: client options that fail fast while Redis is away, a ping
 * that never throws, and a guard that turns a Redis outage into a quick 503 with Retry-After.
 * Design: docs/decisions/availability.md.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { HttpError, isHttpError } from '../errors/errors.js';
import { LIB_ERRORS } from '../errors/error-codes.js';

/**
 * No offline queue: while disconnected a command fails at once instead of waiting for a
 * reconnect. A command to a hung Redis fails after `commandTimeout`. Reconnects go on forever.
 */
export const resilientRedisOptions: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 500,
  connectTimeout: 1000,
  retryStrategy: (times) => Math.min(times * 200, 2000),
};

/** True when Redis answers now; false (never an exception) when it does not. */
export async function pingRedis(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

/** A 503 in the error shape that carries its Retry-After header (packages/shared/src/errors/errors.ts `retryAfterS`). */
export class StoreUnavailableError extends HttpError {
  constructor(retryAfterSeconds: number, cause?: unknown) {
    // data.retryAfterSeconds stays in the body for clients that read it (packages/shared/src/redis/outage.integration.test.ts).
    super({ ...LIB_ERRORS.LIB_STORE_UNAVAILABLE(), retryAfterS: retryAfterSeconds, data: { retryAfterSeconds }, cause });
  }
}

const OUTAGE =
  /command timed out|connection is closed|enableofflinequeue|max.?retries|econnrefused|econnreset|etimedout|epipe|enotfound|eai_again|stream isn't writeable/i;
/** Redis's own refusals of a client it will not serve: auth, protected mode, still loading a dataset. */
const REFUSED = /^(NOAUTH|WRONGPASS|DENIED|LOADING|MASTERDOWN)\b/;

/** Whether an error says Redis is unreachable, hung or refusing this client (as opposed to a store's own refusal). */
export function isRedisOutage(error: unknown): boolean {
  if (!(error instanceof Error) || isHttpError(error)) return false;
  return OUTAGE.test(`${error.name} ${error.message}`) || REFUSED.test(error.message);
}

export interface OutageGuardOptions {
  /** After an outage, calls fail at once for this long (no command waits on a hung Redis). */
  cooldownMs?: number;
  now?: () => number;
}

export interface OutageGuard {
  /** The same store, whose methods throw StoreUnavailableError while Redis is away. */
  wrap<T extends object>(store: T): T;
  readonly open: boolean;
}

/**
 * A small circuit breaker shared by every store on one connection: the first failed command opens
 * it, and for `cooldownMs` every call answers 503 without touching Redis; then one call tries again.
 */
export function createOutageGuard(options: OutageGuardOptions = {}): OutageGuard {
  const cooldownMs = options.cooldownMs ?? 2000;
  const now = options.now ?? Date.now;
  let openUntil = 0;
  const retryAfter = () => Math.max(1, Math.ceil(cooldownMs / 1000));

  const call = async (run: () => unknown): Promise<unknown> => {
    if (now() < openUntil) throw new StoreUnavailableError(retryAfter());
    try {
      return await run();
    } catch (error) {
      if (!isRedisOutage(error)) throw error;
      openUntil = now() + cooldownMs;
      throw new StoreUnavailableError(retryAfter(), error);
    }
  };

  return {
    get open() {
      return now() < openUntil;
    },
    wrap<T extends object>(store: T): T {
      return new Proxy(store, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (typeof value !== 'function' || key === 'ping' || key === 'close') return value;
          return (...args: unknown[]) => call(() => (value as (...a: unknown[]) => unknown).apply(target, args));
        },
      });
    },
  };
}
