import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batched } from './log-destination.js';
import { projectRoot } from './paths.js';

const logger = join(projectRoot, 'dist', 'node', 'lib', 'logger.js');

/** Runs a script that logs through createLogger (JSON to stdout), returns its stdout lines. */
function linesOf(body: string): { lines: Record<string, unknown>[]; status: number | null } {
  const script = `import { createLogger } from ${JSON.stringify(logger)};
const log = createLogger({ service: 'test', format: 'json' });
${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const lines = result.stdout.split('\n').filter(Boolean);
  return { lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>), status: result.status };
}

describe('the services’ log lines, gathered per event-loop turn', () => {
  it('are all written, in order, when the process exits in the same turn', () => {
    const { lines } = linesOf(`for (let n = 0; n < 500; n++) log.info({ n }, 'request');\nprocess.exit(0);`);
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
  });

  it('are written when the process dies of an uncaught error', () => {
    const { lines, status } = linesOf(`log.error('about to fail');\nsetTimeout(() => { throw new Error('boom'); }, 0);`);
    expect(status).not.toBe(0);
    expect(lines.map((line) => line.msg)).toEqual(['about to fail']);
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

  it('gathers the lines of one turn into whole-line writes of at most 4096 bytes (atomic on a shared pipe)', async () => {
    const writes: string[] = [];
    const destination = batched((text) => writes.push(text));
    const lines = Array.from({ length: 100 }, (_, n) => `${JSON.stringify({ n, path: `/caf\u00e9/${'x'.repeat(n)}` })}\n`);
    for (const line of lines) destination.write(line);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.join('')).toBe(lines.join(''));
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.length).toBeLessThan(lines.length / 4);
    for (const write of writes) {
      expect(Buffer.byteLength(write)).toBeLessThanOrEqual(4096);
      expect(write.endsWith('\n')).toBe(true);
    }
  });
});
