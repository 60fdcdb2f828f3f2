import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batched, HOLD_MS } from './log-destination.js';
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

describe('the services’ log lines, gathered into pipe writes', () => {
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
  // The hold's clock is the test's: a loaded machine's slow turns never end a hold early.
  const held = (ms = HOLD_MS) => vi.advanceTimersByTime(ms);
  const wholeLineWrites = (writes: string[]) => {
    for (const write of writes) {
      expect(Buffer.byteLength(write)).toBeLessThanOrEqual(4096);
      expect(write.endsWith('\n')).toBe(true);
    }
  };

  describe('with the clock held', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('writes full pipe writes at once and the rest after the hold, in whole-line writes of at most 4096 bytes', async () => {
      const writes: string[] = [];
      const destination = batched((text) => writes.push(text));
      const lines = Array.from({ length: 100 }, (_, n) => `${JSON.stringify({ n, path: `/caf\u00e9/${'x'.repeat(n)}` })}\n`);
      for (const line of lines) destination.write(line);
      const atOnce = writes.length;
      expect(atOnce).toBeGreaterThanOrEqual(1);
      expect(writes.every((write) => Buffer.byteLength(write) > 3000)).toBe(true);
      await turn();
      held(HOLD_MS - 1);
      expect(writes.length).toBe(atOnce);
      held(1);
      expect(writes.join('')).toBe(lines.join(''));
      expect(writes.length).toBeLessThan(lines.length / 4);
      wholeLineWrites(writes);
    });

    it('holds lines that come a turn apart until they fill a write', async () => {
      const writes: string[] = [];
      const destination = batched((text) => writes.push(text));
      const line = `${JSON.stringify({ msg: 'request', path: '/category/git', pad: 'x'.repeat(300) })}\n`;
      for (let n = 0; n < 200; n++) {
        destination.write(line);
        await turn();
      }
      held();
      expect(writes.join('')).toBe(line.repeat(200));
      // One write per turn would be 200; a full pipe write holds about ten of these lines.
      expect(writes.length).toBeLessThanOrEqual(25);
      wholeLineWrites(writes);
    });

    it(`writes a lone line within ${HOLD_MS} ms`, async () => {
      const writes: string[] = [];
      const destination = batched((text) => writes.push(text));
      destination.write('{"msg":"alone"}\n');
      await turn();
      held(HOLD_MS - 1);
      expect(writes).toEqual([]);
      held(1);
      expect(writes).toEqual(['{"msg":"alone"}\n']);
    });
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
