/**
 * Whether the Redis the renderer found can keep durable data (what a site stores there: accounts,
 * password hashes, sessions): it persists to disk, and its eviction policy never drops a key without a TTL.
 * Checked once when the renderer first connects and said in one log line (README, "Redis in
 * production"; docs/decisions/durable-data.md). Managed Redis often refuses CONFIG: then INFO
 * answers what it can, and the line says what could not be checked.
 */
import { Redis } from 'ioredis';

/** The two levels the check logs at (a pino or Fastify logger). */
export interface DurabilityLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What Redis tells about itself; undefined where it would not say. */
export interface RedisDurabilityFacts {
  appendonly?: boolean;
  /** RDB save points (`save` config), '' when snapshots are off. */
  save?: string;
  appendfsync?: string;
  maxmemory?: number;
  policy?: string;
  /** Why CONFIG GET could not be used, when it could not. */
  configRefused?: string;
}

export interface DurabilityVerdict {
  /** 'unsafe': durable data can be lost; 'unknown': some of it could not be checked. */
  status: 'ok' | 'unsafe' | 'unknown';
  problems: string[];
  notes: string[];
}

/** Keys without a TTL (accounts, sessions) are only safe from eviction under these policies. */
const SAFE_POLICIES = new Set(['noeviction', 'volatile-lru', 'volatile-lfu', 'volatile-random', 'volatile-ttl']);

export function assessDurability(facts: RedisDurabilityFacts): DurabilityVerdict {
  const problems: string[] = [];
  const notes: string[] = [];
  let unknown = false;

  if (facts.appendonly === false && facts.save === '') {
    problems.push('persistence is off (appendonly no, no save points): a restart empties Redis and every account with it');
  } else if (facts.appendonly === false && facts.save === undefined) {
    unknown = true;
    notes.push(`appendonly is off and RDB snapshots could not be checked (${facts.configRefused ?? 'CONFIG GET refused'})`);
  } else if (facts.appendonly === false) {
    notes.push(`only RDB snapshots (save ${facts.save}): a restart loses what was written since the last one; appendonly yes keeps it`);
  } else if (facts.appendonly === undefined) {
    unknown = true;
    notes.push('persistence could not be checked');
  } else if (facts.appendfsync === 'no') {
    notes.push('appendfsync no: the OS decides when writes reach the disk');
  }

  if (facts.policy === undefined) {
    unknown = true;
    notes.push('maxmemory-policy could not be checked');
  } else if (!SAFE_POLICIES.has(facts.policy)) {
    problems.push(`maxmemory-policy ${facts.policy} may evict keys without a TTL (accounts, sessions): use volatile-lru`);
  } else if (facts.policy === 'noeviction' && facts.maxmemory) {
    notes.push('maxmemory-policy noeviction: once memory is full, sign-up and saving fail; volatile-lru lets the cache make room');
  }

  const status = problems.length > 0 ? 'unsafe' : unknown ? 'unknown' : 'ok';
  return { status, problems, notes };
}

/** INFO's `field:value` lines of one section. */
function infoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

export async function readDurabilityFacts(redis: Redis): Promise<RedisDurabilityFacts> {
  const facts: RedisDurabilityFacts = {};
  try {
    const pairs = (await redis.call('CONFIG', 'GET', 'appendonly', 'appendfsync', 'save', 'maxmemory', 'maxmemory-policy')) as string[];
    const config = new Map<string, string>();
    for (let i = 0; i + 1 < pairs.length; i += 2) config.set(pairs[i]!, pairs[i + 1]!);
    if (config.has('appendonly')) facts.appendonly = config.get('appendonly') === 'yes';
    if (config.has('save')) facts.save = config.get('save')!.trim();
    facts.appendfsync = config.get('appendfsync');
    if (config.has('maxmemory')) facts.maxmemory = Number(config.get('maxmemory'));
    facts.policy = config.get('maxmemory-policy');
  } catch (error) {
    facts.configRefused = error instanceof Error ? error.message : String(error);
  }
  // INFO fills what CONFIG did not say (most managed services allow it).
  if (facts.appendonly === undefined || facts.policy === undefined) {
    const persistence = infoFields(await redis.info('persistence').catch(() => ''));
    const memory = infoFields(await redis.info('memory').catch(() => ''));
    const aof = persistence.get('aof_enabled');
    if (facts.appendonly === undefined && aof !== undefined) facts.appendonly = aof === '1';
    facts.policy ??= memory.get('maxmemory_policy');
    const maxmemory = memory.get('maxmemory');
    if (facts.maxmemory === undefined && maxmemory !== undefined) facts.maxmemory = Number(maxmemory);
  }
  return facts;
}

/** The one start-up line: info when all is well, warn otherwise. */
export function logDurability(logger: DurabilityLogger, verdict: DurabilityVerdict, facts: RedisDurabilityFacts): void {
  const fields = { redisDurability: verdict.status, ...facts, problems: verdict.problems, notes: verdict.notes };
  if (verdict.status === 'ok') {
    logger.info(fields, 'redis keeps durable data: persistence on, no eviction of keys without a TTL');
  } else if (verdict.status === 'unsafe') {
    logger.warn(fields, `redis cannot keep accounts safely: ${verdict.problems.join('; ')}`);
  } else {
    logger.warn(fields, `redis durability could not be fully checked: ${verdict.notes.join('; ')}`);
  }
}

/**
 * Checks the Redis at `url` once it is reachable (now, or when it first comes up) on a connection of
 * its own, logs the verdict and disconnects. The returned function stops a check still waiting.
 */
export function watchRedisDurability(url: string, logger: DurabilityLogger): () => void {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 500, 5000),
  });
  redis.on('error', () => undefined); // an unreachable Redis is reported by /readyz, not here
  redis.once('ready', () => {
    void readDurabilityFacts(redis)
      .then((facts) => logDurability(logger, assessDurability(facts), facts))
      .catch((error: unknown) => logger.warn({ err: error }, 'redis durability could not be checked'))
      .finally(() => redis.disconnect());
  });
  return () => redis.disconnect();
}
