/**
 * The idle collection gives memory back to the system, on the Node that runs the tests (CI runs
 * them under Node 20 and 24, whose V8s need different calls: packages/shared/src/process/idle-gc.ts `givingBack`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../config/paths.js';

const idleGc = join(projectRoot, 'packages', 'shared', 'dist', 'process', 'idle-gc.js');

// About 100 MB of objects promoted to the old generation, then dropped, as a burst of renders leaves them.
const script = `import { givingBack } from ${JSON.stringify(idleGc)};
let kept = [];
for (let round = 0; round < 40; round++) {
  const batch = [];
  for (let i = 0; i < 20000; i++) batch.push({ i, text: 'x'.repeat(20) + i });
  kept.push(batch);
  if (kept.length > 10) kept.shift();
}
kept = null;
const rss = () => process.memoryUsage().rss;
const before = rss();
givingBack(globalThis.gc)();
setTimeout(() => process.stdout.write(JSON.stringify({ before, after: rss() })), 1000);`;

describe('the idle collection', () => {
  it('returns most of a burst’s garbage to the system', () => {
    const result = spawnSync(process.execPath, ['--expose-gc', '--max-semi-space-size=4', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const { before, after } = JSON.parse(result.stdout) as { before: number; after: number };
    expect(before).toBeGreaterThan(90 * 1024 * 1024);
    expect(after).toBeLessThan(before * 0.6);
  });
});
