/**
 * A JSON line written without pino's generic serialiser, for the one line every request writes
 * (its access line, packages/shared/src/http/service.ts). pino walks each field through its
 * serialisers and hooks: 4 % of a cached hit's CPU in the gateway's profile, where this costs a
 * quarter of that (docs/decisions/performance.md). Only loggers made by createLogger for JSON
 * output have it; the line is the one pino would write for the same fields, byte for byte.
 */
import type { DestinationStream, Logger } from 'pino';

/** Writes `fields` and `msg` as one line at `level`, if the logger's level lets it through. */
export type JsonLineWriter = (level: 'info' | 'debug', fields: Readonly<Record<string, unknown>>, msg: string) => void;

const writers = new WeakMap<object, JsonLineWriter>();

// Characters that JSON writes as they are: most paths, ids and words.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function jsonValue(value: unknown): string {
  if (typeof value === 'string') return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value) ?? 'null';
}

/**
 * Gives `logger` (pino, base `{ service }`, the default message key, time and level formats, no
 * mixin) a writer of its lines straight to `destination`.
 */
export function addJsonLineWriter(logger: Logger, service: string, destination: DestinationStream): void {
  const bindings = `,"service":${jsonValue(service)}`;
  writers.set(logger, (level, fields, msg) => {
    if (!logger.isLevelEnabled(level)) return;
    let line = `{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings}`;
    for (const key in fields) {
      const value = fields[key];
      // pino leaves out what JSON cannot say.
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      line += `,${jsonValue(key)}:${jsonValue(value)}`;
    }
    destination.write(`${line},"msg":${jsonValue(msg)}}\n`);
  });
}

/** The writer `logger` was given, if any: other loggers (tests', pretty output) go through pino. */
export function jsonLineWriterOf(logger: object): JsonLineWriter | undefined {
  return writers.get(logger);
}
