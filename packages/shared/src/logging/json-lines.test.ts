import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { addJsonLineWriter, jsonLineWriterOf } from './json-lines.js';

/** A pino logger as createLogger makes it, writing to an array, with and without the line writer. */
function loggers(level = 'info') {
  const lines: string[] = [];
  const destination = { write: (line: string) => void lines.push(line) };
  const options = { level, base: { service: 'gateway' }, redact: { paths: ['password'], censor: '[redacted]' } };
  const withWriter = pino(options, destination);
  addJsonLineWriter(withWriter, 'gateway', destination);
  return { lines, viaPino: pino(options, destination).child({}, { redact: [] }), writer: jsonLineWriterOf(withWriter)! };
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

const CASES: Record<string, unknown>[] = [
  { reqId: 'req-1', method: 'GET', path: '/category/git', status: 200, durationMs: 0.12, upstream: 'cache', cache: 'HIT' },
  { reqId: 'r', method: 'GET', path: '/a"b\\c', status: 404, durationMs: 1, traceId: undefined, upstream: 'gateway' },
  { path: '/caf\u00e9/\u2028/\u0001/\ud800', status: 499, durationMs: Number.NaN, ok: true, none: null },
  { path: '/x?q=' + 'y'.repeat(300), nested: { a: [1, 'two'] }, skipped: () => 1 },
];

describe('JSON lines without pino', () => {
  it.each(CASES.map((fields, i) => [i, fields] as const))('writes what pino writes, byte for byte (case %i)', (_, fields) => {
    const { lines, viaPino, writer } = loggers();
    viaPino.info(fields, 'request');
    writer('info', fields, 'request');
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[1]!)).toBe(withoutTime(lines[0]!));
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 30, service: 'gateway', msg: 'request' });
  });

  it('keeps to the logger level, read at each line', () => {
    const { lines, writer } = loggers('info');
    writer('debug', { path: '/healthz' }, 'request');
    expect(lines).toEqual([]);
    writer('info', { path: '/' }, 'request');
    expect(lines).toHaveLength(1);
  });

  it('writes debug lines at level 20 when the level allows them', () => {
    const { lines, viaPino, writer } = loggers('debug');
    viaPino.debug({ path: '/healthz' }, 'request');
    writer('debug', { path: '/healthz' }, 'request');
    expect(withoutTime(lines[1]!)).toBe(withoutTime(lines[0]!));
  });

  it('is given only to loggers that asked for it', () => {
    expect(jsonLineWriterOf(pino({ level: 'silent' }))).toBeUndefined();
  });
});
