/**
 * The children's output for a person at a terminal: each pino JSON line made readable and tagged
 * with its service (`npm run dev`, and `npm start` on a terminal). Anywhere else `npm start`'s
 * services write their JSON lines to its output themselves (packages/cli/src/launch.ts), and the
 * launcher's own lines take the same form (`launcherLine`).
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

const COLORS: Record<string, string> = { gateway: '36', renderer: '35', image: '33', icons: '34', launcher: '32' };
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg', 'reqId']);

/** Where relayed lines go: process.stdout or stderr, or anything with write and isTTY. */
export interface LineSink {
  write(chunk: string | Buffer): unknown;
  isTTY?: boolean;
}

export function tag(name: string, color: boolean): string {
  const label = `[${name}]`.padEnd(11);
  return color ? `\x1b[${COLORS[name] ?? '37'}m${label}\x1b[0m` : label;
}

/** An error field as one readable phrase: its type and message; the stack stays in the JSON log. */
function errorPhrase(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const { type, message, code } = value as { type?: unknown; message?: unknown; code?: unknown };
  const name = typeof type === 'string' && type !== 'Error' ? `${type}: ` : '';
  return `${name}${String(message ?? '')}${typeof code === 'string' ? ` (${code})` : ''}`;
}

const value = (key: string, field: unknown) =>
  key === 'err' || key === 'error' ? errorPhrase(field) : typeof field === 'string' ? field : JSON.stringify(field);

/** One readable line from one pino JSON line; anything else is passed through as it is. */
export function formatLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof record !== 'object' || record === null || !('level' in record)) return line;
  const time = new Date(Number(record.time ?? Date.now())).toISOString().slice(11, 23);
  const level = (LEVELS[Number(record.level)] ?? 'INFO').padEnd(5);
  const id = record.reqId ? ` (${String(record.reqId)})` : '';
  const extra = Object.entries(record)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, field]) => `${key}=${value(key, field)}`)
    .join(' ');
  return `${time} ${level} ${String(record.msg ?? '')}${id}${extra ? ` ${extra}` : ''}`;
}

/** Readable lines for a person at a terminal, raw JSON lines for anything else. */
export const relaysReadable = (out: LineSink): boolean => Boolean(out.isTTY);

/** A stack frame Node printed itself (a crash before the logger existed): the JSON log keeps it. */
const STACK_FRAME = /^\s+at /;

/**
 * Every line made readable and tagged, coloured on a terminal; each line as it came is also handed
 * to `keep` (the launcher's JSON log file), where stack traces stay.
 */
export function pipeTagged(name: string, stream: Readable, out: LineSink, keep?: (line: string) => void): void {
  const prefix = tag(name, Boolean(out.isTTY));
  createInterface({ input: stream }).on('line', (line) => {
    keep?.(line);
    if (!STACK_FRAME.test(line)) out.write(`${prefix} ${formatLine(line)}\n`);
  });
}

/** A line of the launcher itself, in the form its children's lines take on that output. */
export function launcherLine(message: string, out: LineSink, level: 30 | 50 = 30): string {
  if (relaysReadable(out)) return `${tag('launcher', true)} ${message}\n`;
  return `${JSON.stringify({ level, time: Date.now(), service: 'launcher', msg: message })}\n`;
}
