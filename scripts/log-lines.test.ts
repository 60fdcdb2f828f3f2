import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { launcherLine, pipeTagged } from './log-lines.js';

/** A sink that records each write, as a pipe or file would receive it. */
function sink(isTTY = false): { writes: string[]; write(chunk: string | Buffer): boolean; isTTY: boolean } {
  const writes: string[] = [];
  return { writes, isTTY, write: (chunk) => Boolean(writes.push(chunk.toString())) };
}

const ended = (stream: PassThrough) => new Promise((resolve) => stream.once('end', resolve));

describe('the launcher and dev output', () => {
  it('tags and formats each line for a person at a terminal', async () => {
    const out = sink(true);
    const input = new PassThrough();
    pipeTagged('gateway', input, out);
    input.end('{"level":40,"time":0,"service":"gateway","msg":"slow upstream","upstream":"renderer"}\n');
    await ended(input);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes.join('')).toMatch(/\[gateway\].*WARN +slow upstream upstream=renderer/);
  });

  it("writes the launcher's own lines as JSON beside its children's, readable on a terminal", () => {
    const record = JSON.parse(launcherLine('ready: http://localhost:3000/', sink(), 30)) as Record<string, unknown>;
    expect(record).toMatchObject({ level: 30, service: 'launcher', msg: 'ready: http://localhost:3000/' });
    expect(launcherLine('ready', sink(true))).toMatch(/\[launcher\].* ready\n$/);
  });
});
