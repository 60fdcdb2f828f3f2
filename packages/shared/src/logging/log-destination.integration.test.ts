import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batched } from './log-destination.js';
import { projectRoot } from '../config/paths.js';

const logger = join(projectRoot, 'packages', 'shared', 'dist', 'logging', 'logger.js');

/** Runs a script that logs through createLogger (JSON to stdout), returns its stdout lines. */
function linesOf(body: string): { lines: Record<string, unknown>[]; status: number | null } {
  const script = `import { createLogger } from ${JSON.stringify(logger)};
const log = createLogger({ service: 'test', format: 'json' });
${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const lines = result.stdout.split('\n').filter(Boolean);
  return { lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>), status: result.status };
}

describe('the services’ log lines, gathered while the loop is busy', () => {
  it('are all written, in order, when the process exits in the same turn', () => {
    const { lines } = linesOf(`for (let n = 0; n < 500; n++) log.info({ n }, 'request');\nprocess.exit(0);`);
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
  });

  it('are written when the process dies of an uncaught error, the crash as one fatal line with its stack', () => {
    const { lines, status } = linesOf(`log.error('about to fail');\nsetTimeout(() => { throw new Error('boom'); }, 0);`);
    expect(status).toBe(1);
    expect(lines.map((line) => line.msg)).toEqual(['about to fail', 'crashed: boom']);
    expect(lines[1]).toMatchObject({ level: 60, origin: 'uncaughtException', err: { type: 'Error', message: 'boom' } });
    expect((lines[1]!.err as { stack: string }).stack).toMatch(/^Error: boom\n\s+at /);
  });

  it('says a rejection nobody handled as a crash too', () => {
    const { lines, status } = linesOf(`await Promise.reject(new Error('port taken'));`);
    expect(status).toBe(1);
    expect(lines.map((line) => line.msg)).toEqual(['crashed: port taken']);
  });

  it('are not held back: a line is out while the process keeps running', async () => {
    const script = `import { createLogger } from ${JSON.stringify(logger)};
createLogger({ service: 'test', format: 'json' }).info('first');
setTimeout(() => undefined, 60_000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
      expect(JSON.parse(line)).toMatchObject({ msg: 'first', service: 'test' });
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  });

  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const wholeLineWrites = (writes: string[]) => {
    for (const write of writes) {
      expect(Buffer.byteLength(write)).toBeLessThanOrEqual(4096);
      expect(write.endsWith('\n')).toBe(true);
    }
  };

  it('writes a full pipe write at once and the rest at the first quiet turn, in whole-line writes of at most 4096 bytes', async () => {
    const writes: string[] = [];
    const destination = batched((text) => writes.push(text));
    const lines = Array.from({ length: 100 }, (_, n) => `${JSON.stringify({ n, path: `/caf\u00e9/${'x'.repeat(n)}` })}\n`);
    for (const line of lines) destination.write(line);
    expect(writes).toEqual([]);
    await turn();
    const atOnce = writes.length;
    expect(atOnce).toBeGreaterThanOrEqual(1);
    expect(writes.every((write) => Buffer.byteLength(write) > 3000)).toBe(true);
    await turn();
    expect(writes.join('')).toBe(lines.join(''));
    expect(writes.length).toBeLessThan(lines.length / 4);
    wholeLineWrites(writes);
  });

  it('holds lines while every turn brings more, until they fill a write', async () => {
    const writes: string[] = [];
    const destination = batched((text) => writes.push(text));
    const line = `${JSON.stringify({ msg: 'request', path: '/category/git', pad: 'x'.repeat(300) })}\n`;
    for (let n = 0; n < 200; n++) {
      destination.write(line);
      await turn();
    }
    await turn();
    await turn();
    expect(writes.join('')).toBe(line.repeat(200));
    // One write per turn would be 200; a full pipe write holds about ten of these lines.
    expect(writes.length).toBeLessThanOrEqual(25);
    wholeLineWrites(writes);
  });

  it('writes a lone line within two turns, without a timer', async () => {
    const writes: string[] = [];
    const destination = batched((text) => writes.push(text));
    destination.write('{"msg":"alone"}\n');
    await turn();
    await turn();
    expect(writes).toEqual(['{"msg":"alone"}\n']);
  });

  it('writes a line longer than a pipe write alone, while the loop is busy', async () => {
    const writes: string[] = [];
    const destination = batched((text) => writes.push(text));
    const long = `${JSON.stringify({ pad: 'y'.repeat(5000) })}\n`;
    destination.write(long);
    for (let n = 0; n < 3; n++) {
      destination.write('{"n":1}\n');
      await turn();
    }
    expect(writes[0]).toBe(long);
  });
});
