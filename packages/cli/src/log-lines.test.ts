import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatLine, launcherLine, pipeTagged } from './log-lines.js';

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
    const record = JSON.parse(launcherLine('ready at http://localhost:3000', sink(), 30)) as Record<string, unknown>;
    expect(record).toMatchObject({ level: 30, service: 'launcher', msg: 'ready at http://localhost:3000' });
    expect(launcherLine('ready', sink(true))).toMatch(/\[launcher\].* ready\n$/);
  });

  it('shows an error as one line, its type and message; the stack stays in the JSON', () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      service: 'renderer',
      msg: 'request failed',
      err: { type: 'TypeError', message: 'x is not a function', stack: 'TypeError: x is not a function\n    at render (file:///a.js:1:1)' },
    });
    expect(formatLine(line)).toMatch(/ERROR request failed err=TypeError: x is not a function$/);
    expect(
      formatLine(
        JSON.stringify({
          level: 60,
          time: 0,
          msg: 'crashed: listen EADDRINUSE',
          err: { type: 'Error', message: 'listen EADDRINUSE', code: 'EADDRINUSE' },
        }),
      ),
    ).toMatch(/FATAL crashed: listen EADDRINUSE err=listen EADDRINUSE \(EADDRINUSE\)$/);
  });

  it('leaves a stack Node printed itself off the terminal and keeps every line for the JSON log', async () => {
    const out = sink(true);
    const kept: string[] = [];
    const input = new PassThrough();
    pipeTagged('image', input, out, (line) => kept.push(line));
    input.end('Error: boom\n    at main (file:///x.js:1:1)\n    at run (node:internal/x:2:2)\n');
    await ended(input);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0]).toMatch(/\[image\].* Error: boom\n$/);
    expect(kept).toEqual(['Error: boom', '    at main (file:///x.js:1:1)', '    at run (node:internal/x:2:2)']);
  });
});
