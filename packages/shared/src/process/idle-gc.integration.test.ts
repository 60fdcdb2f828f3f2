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

// A service's young generation after a burst of requests: short-lived objects at a high rate grow
// it to its largest size (32 MB, more than the growth a collection needs to be worth it); the idle
// collector with its own timing and threshold (startIdleGc's defaults) then runs.
const youngScript = `import { getHeapSpaceStatistics } from 'node:v8';
import { givingBack, startIdleGc } from ${JSON.stringify(idleGc)};
const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
const collect = givingBack(globalThis.gc);
const tooLong = setTimeout(() => process.exit(3), 15000);
let collections = 0;
const idle = startIdleGc(undefined, () => {
  collect();
  if (++collections < 2) return;
  idle.stop();
  clearTimeout(tooLong);
  process.stdout.write(JSON.stringify({ before, after: young(), quietMs: Date.now() - burstEnd }));
});
let inFlight = [];
const start = Date.now();
while (Date.now() - start < 1000) {
  for (let i = 0; i < 1000; i++) inFlight.push({ i, headers: ['x-cache', 'HIT', 'age', String(i)] });
  if (inFlight.length > 20000) inFlight = [];
  idle.touch();
}
inFlight = null;
const before = young();
const burstEnd = Date.now();
`;

describe('the idle collection of a service run with a large young generation', () => {
  it('gives the young generation back too, once V8 has seen the allocation rate fall', () => {
    const result = spawnSync(process.execPath, ['--expose-gc', '--max-semi-space-size=16', '--input-type=module', '-e', youngScript], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const { before, after, quietMs } = JSON.parse(result.stdout) as { before: number; after: number; quietMs: number };
    expect(before).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    expect(after).toBeLessThan(before / 4);
    expect(quietMs).toBeGreaterThan(5000);
  }, 20_000);
});
